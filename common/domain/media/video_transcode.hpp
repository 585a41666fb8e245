// A video made fit for a platform by ffmpeg: H.264/AAC in an MP4 that can play while it loads,
// its picture padded and scaled to the frame the platform takes.
#pragma once

#include "common/domain/media/media_settings.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace squawk::media {

// The picture padded (centred, black bars) to pad_width x pad_height, then scaled to width x
// height; every side even, as H.264's 4:2:0 sampling needs.
struct PaddedFrame {
    int pad_width = 0;
    int pad_height = 0;
    int width = 0;
    int height = 0;
};

// Transcodes `input` to `output`, fitted to `frame` when given (else only its sides rounded down
// to even); ffmpeg's error when it failed or did not finish within the transcode timeout.
std::optional<std::string> transcode_video(const config::MediaSettings& settings,
                                           const std::filesystem::path& input,
                                           const std::filesystem::path& output,
                                           const std::optional<PaddedFrame>& frame);

}  // namespace squawk::media
