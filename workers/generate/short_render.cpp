#include "workers/generate/short_render.hpp"

#include "workers/generate/ffmpeg_run.hpp"

namespace squawk::workers::generate {
namespace {

std::string escaped(const std::string& text, std::string_view specials) {
    std::string out;
    for (const char c : text) {
        if (specials.find(c) != std::string_view::npos) out += '\\';
        out += c;
    }
    return out;
}

}  // namespace

std::string filter_graph_path(const std::filesystem::path& path) {
    return escaped(escaped(std::filesystem::absolute(path).string(), "\\':"), "\\'[],;");
}

std::vector<std::string> short_clip_arguments(const std::string& ffmpeg,
                                              const ShortClipRender& clip) {
    const std::string w = std::to_string(kShortWidth);
    const std::string h = std::to_string(kShortHeight);
    const std::string fps = std::to_string(kShortFramesPerSecond);
    const std::string captions = "ass=filename=" + filter_graph_path(clip.captions);
    const std::string duration = ffmpeg_decimal(clip.duration_seconds);
    std::vector<std::string> argv{ffmpeg, "-hide_banner", "-nostdin", "-v", "error", "-y"};
    std::string graph;
    std::string sound;
    if (clip.source_has_picture) {
        argv.insert(argv.end(), {"-ss", ffmpeg_decimal(clip.start_seconds), "-t", duration, "-i",
                                 ffmpeg_file_url(clip.source)});
        graph = "[0:v]scale=" + w + ":" + h + ":force_original_aspect_ratio=increase,crop=" + w +
                ":" + h + ",setsar=1,fps=" + fps + "," + captions + ",format=yuv420p[v]";
        sound = "0:a:0";
    } else {
        argv.insert(argv.end(), {"-f", "lavfi", "-i",
                                 "color=c=" + clip.background + ":s=" + w + "x" + h + ":r=" + fps,
                                 "-ss", ffmpeg_decimal(clip.start_seconds), "-t", duration, "-i",
                                 ffmpeg_file_url(clip.source)});
        graph = "[0:v]" + captions + ",format=yuv420p[v]";
        sound = "1:a:0";
    }
    argv.insert(argv.end(),
                {"-filter_complex", graph, "-map", "[v]", "-map", sound, "-t", duration});
    append_mp4_output(argv, clip.output);
    return argv;
}

}  // namespace squawk::workers::generate
