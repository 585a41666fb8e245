#include "common/domain/media/video_transcode.hpp"

#include "common/core/process/subprocess.hpp"

namespace squawk::media {
namespace {

std::string picture_filter(const std::optional<PaddedFrame>& frame) {
    if (!frame) return "scale=trunc(iw/2)*2:trunc(ih/2)*2";
    const auto pad = std::to_string(frame->pad_width) + ":" + std::to_string(frame->pad_height);
    return "pad=" + pad + ":(ow-iw)/2:(oh-ih)/2:black,scale=" + std::to_string(frame->width) + ":" +
           std::to_string(frame->height) + ",setsar=1";
}

}  // namespace

std::optional<std::string> transcode_video(const config::MediaSettings& settings,
                                           const std::filesystem::path& input,
                                           const std::filesystem::path& output,
                                           const VideoFit& fit) {
    process::SubprocessRequest request;
    request.argv = {settings.ffmpeg, "-nostdin", "-v", "error", "-y", "-i",
                    // "file:" keeps ffmpeg from reading any part of a path as a protocol or an
                    // option.
                    "file:" + input.string(), "-map", "0:v:0", "-map", "0:a:0?", "-vf",
                    picture_filter(fit.frame), "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt",
                    "yuv420p", "-c:a", "aac", "-movflags", "+faststart", "-b:a",
                    std::to_string(kTranscodeAudioBitsPerSecond)};
    if (fit.video_bits_per_second > 0) {
        // A one-second buffer as large as the rate keeps every second near it, so the size
        // lands within a few percent of rate x duration even for pictures hard to compress.
        const auto rate = std::to_string(fit.video_bits_per_second);
        request.argv.insert(request.argv.end(), {"-b:v", rate, "-maxrate", rate, "-bufsize", rate});
    }
    // The cache's file names carry no extension to tell the format by.
    request.argv.insert(request.argv.end(), {"-f", "mp4", "file:" + output.string()});
    request.timeout = std::chrono::seconds(settings.transcode_timeout_seconds);
    const auto result = process::run_subprocess(request);
    if (result.exit_code == 0) return std::nullopt;
    if (result.timed_out) return "ffmpeg did not finish in time";
    return "ffmpeg failed: " + result.stderr_text.substr(0, 300);
}

}  // namespace squawk::media
