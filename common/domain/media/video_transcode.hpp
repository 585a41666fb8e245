// A video made fit for a platform by ffmpeg: H.264/AAC in an MP4 that can play while it loads,
// its picture padded and scaled to the frame the platform takes, and re-encoded at a bitrate that
// brings it under the platform's size limit.
#pragma once

#include "common/domain/media/media_settings.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace squawk::media {

// The sound of every transcode (AAC); a bitrate fit counts it against the size limit.
inline constexpr long long kTranscodeAudioBitsPerSecond = 128'000;

// The picture padded (centred, black bars) to pad_width x pad_height, then scaled to width x
// height; every side even, as H.264's 4:2:0 sampling needs.
struct PaddedFrame {
    int pad_width = 0;
    int pad_height = 0;
    int width = 0;
    int height = 0;
};

struct VideoFit {
    std::optional<PaddedFrame> frame;  // nothing: the video's own, its sides rounded down to even
    // The picture's bitrate, held over every second so that the file's size follows from it; 0:
    // the encoder's own choice for its quality.
    long long video_bits_per_second = 0;
};

// Transcodes `input` to `output` fitted as asked; ffmpeg's error when it failed or did not finish
// within the transcode timeout.
std::optional<std::string> transcode_video(const config::MediaSettings& settings,
                                           const std::filesystem::path& input,
                                           const std::filesystem::path& output,
                                           const VideoFit& fit);

}  // namespace squawk::media
