// How a narrated slideshow becomes one ffmpeg run: each scene's picture held for its narration
// and a short breath, slowly zoomed in, faded in and out, with the narrations end to end as sound.
#pragma once

#include "common/domain/generation/image_provider.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::workers::generate {

inline constexpr int kVideoFramesPerSecond = 25;
// Silence after each narration, so scenes do not run into each other.
inline constexpr double kScenePadSeconds = 0.3;
// The longest fade in and out; a short scene fades over a quarter of its length each way.
inline constexpr double kSceneFadeSeconds = 0.3;
// How far a scene's picture has zoomed in by its last frame (Ken Burns).
inline constexpr double kSceneZoom = 0.08;

struct SceneClip {
    std::filesystem::path picture;    // any image ffmpeg reads, of any size
    std::filesystem::path narration;  // a WAV
    double narration_seconds = 0;
};

// Whole frames a scene lasts: its narration and the pad, rounded up.
int scene_frames(double narration_seconds);
// The same as seconds of video.
double scene_seconds(double narration_seconds);

// The command line (no shell) that writes the scenes as one H.264 (yuv420p, faststart) and AAC
// MP4 of `size` at `output`: one input per picture and per narration, one filter graph.
std::vector<std::string> compose_arguments(const std::string& ffmpeg,
                                           const std::vector<SceneClip>& scenes,
                                           generation::ImageSize size,
                                           const std::filesystem::path& output);

// The card size to render for a video of `size`: the same when it is a card size, else the
// largest card size of the same shape (1920x1080 -> 1600x900) that ffmpeg scales up.
generation::ImageSize card_size_for(generation::ImageSize video);

// `text` cut to at most `max_chars` characters (UTF-8), at a space when there is one, with an
// ellipsis when it was cut.
std::string shortened(std::string_view text, size_t max_chars);

}  // namespace squawk::workers::generate
