// How one clip of a short becomes one ffmpeg run: the source's stretch cut out, reframed to a
// 9:16 frame (a centred crop of a picture, a plain background behind a recording without one),
// its ASS captions burnt in by libass (fonts found through fontconfig), written as H.264 and AAC.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace squawk::workers::generate {

inline constexpr int kShortWidth = 1080;
inline constexpr int kShortHeight = 1920;
inline constexpr int kShortFramesPerSecond = 30;

struct ShortClipRender {
    std::filesystem::path source;  // any audio or video file ffmpeg reads
    bool source_has_picture = true;
    double start_seconds = 0;  // in the source
    double duration_seconds = 0;
    std::filesystem::path captions;  // an ASS document timed from the clip's start
    std::string background;          // ffmpeg's colour behind a source without a picture
    std::filesystem::path output;    // written as MP4 whatever its name
};

// The command line (no shell) of the clip's render.
std::vector<std::string> short_clip_arguments(const std::string& ffmpeg,
                                              const ShortClipRender& clip);

// `path` as the value of a filter option inside a filter graph (both levels of ffmpeg's
// escaping), so no character of it ends the option or the filter.
std::string filter_graph_path(const std::filesystem::path& path);

}  // namespace squawk::workers::generate
