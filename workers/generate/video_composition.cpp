#include "workers/generate/video_composition.hpp"

#include "workers/generate/ffmpeg_run.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace squawk::workers::generate {
namespace {

bool is_continuation(char c) {
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// The picture of scene `index`: its first frame covering the size, zoomed in over `frames`
// frames, faded in and out.
std::string picture_filter(size_t index, int frames, generation::ImageSize size) {
    const std::string w = std::to_string(size.width);
    const std::string h = std::to_string(size.height);
    const std::string n = std::to_string(frames);
    const double seconds = static_cast<double>(frames) / kVideoFramesPerSecond;
    const double fade = std::min(kSceneFadeSeconds, seconds / 4);
    return "[" + std::to_string(2 * index) + ":v]trim=end_frame=1,scale=" + w + ":" + h +
           ":force_original_aspect_ratio=increase,crop=" + w + ":" + h + ",setsar=1,zoompan=z='1+" +
           ffmpeg_decimal(kSceneZoom) + "*on/" + n +
           "':x='(iw-iw/zoom)/2':y='(ih-ih/zoom)/2':d=" + n + ":s=" + w + "x" + h +
           ":fps=" + std::to_string(kVideoFramesPerSecond) +
           ",fade=t=in:st=0:d=" + ffmpeg_decimal(fade) +
           ",fade=t=out:st=" + ffmpeg_decimal(seconds - fade) + ":d=" + ffmpeg_decimal(fade) +
           ",format=yuv420p[v" + std::to_string(index) + "]";
}

// The narration of scene `index`, in one sample format and padded with silence to the scene.
std::string narration_filter(size_t index, int frames) {
    const std::string seconds = ffmpeg_decimal(static_cast<double>(frames) / kVideoFramesPerSecond);
    return "[" + std::to_string(2 * index + 1) +
           ":a]aformat=sample_fmts=fltp:sample_rates=44100:channel_layouts=stereo,apad=whole_dur=" +
           seconds + ",atrim=end=" + seconds + "[a" + std::to_string(index) + "]";
}

}  // namespace

int scene_frames(double narration_seconds) {
    const double frames =
        (std::max(narration_seconds, 0.0) + kScenePadSeconds) * kVideoFramesPerSecond;
    // 0.1 + 0.3 is a hair over 0.4 in binary: that is 10 frames, not 11.
    return static_cast<int>(std::ceil(frames - 1e-6));
}

double scene_seconds(double narration_seconds) {
    return static_cast<double>(scene_frames(narration_seconds)) / kVideoFramesPerSecond;
}

std::vector<std::string> compose_arguments(const std::string& ffmpeg,
                                           const std::vector<SceneClip>& scenes,
                                           generation::ImageSize size,
                                           const std::filesystem::path& output) {
    std::vector<std::string> argv{ffmpeg, "-hide_banner", "-nostdin", "-v", "error", "-y"};
    for (const auto& scene : scenes) {
        argv.insert(argv.end(),
                    {"-i", ffmpeg_file_url(scene.picture), "-i", ffmpeg_file_url(scene.narration)});
    }
    std::string graph;
    std::string joined;
    for (size_t i = 0; i < scenes.size(); ++i) {
        const int frames = scene_frames(scenes[i].narration_seconds);
        graph += picture_filter(i, frames, size) + ";" + narration_filter(i, frames) + ";";
        joined += "[v" + std::to_string(i) + "][a" + std::to_string(i) + "]";
    }
    graph += joined + "concat=n=" + std::to_string(scenes.size()) + ":v=1:a=1[v][a]";
    argv.insert(argv.end(), {"-filter_complex", graph, "-map", "[v]", "-map", "[a]", "-r",
                             std::to_string(kVideoFramesPerSecond)});
    append_mp4_output(argv, output);
    return argv;
}

generation::ImageSize card_size_for(generation::ImageSize video) {
    std::optional<generation::ImageSize> best;
    for (const auto& size : generation::kImageSizes) {
        if (size.width == video.width && size.height == video.height) return size;
        const bool same_shape = static_cast<long long>(size.width) * video.height ==
                                static_cast<long long>(video.width) * size.height;
        if (same_shape && (!best || size.width > best->width)) best = size;
    }
    return best.value_or(generation::kImageSizes[0]);
}

std::string shortened(std::string_view text, size_t max_chars) {
    size_t chars = 0;
    size_t cut = 0;  // bytes of the first max_chars - 1 characters, room for the ellipsis
    for (size_t i = 0; i < text.size(); ++i) {
        if (is_continuation(text[i])) continue;
        if (chars + 1 == max_chars) cut = i;
        ++chars;
    }
    if (chars <= max_chars) return std::string(text);
    const auto space = text.substr(0, cut).find_last_of(' ');
    if (space != std::string_view::npos && space > 0) cut = space;
    std::string out(text.substr(0, cut));
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\u2026";
}

}  // namespace squawk::workers::generate
