// What an uploaded file really is, from its bytes: the type libmagic reads, then its dimensions,
// duration and streams from ffprobe. Nothing the client says about the file is trusted.
#pragma once

#include "common/domain/media/media_settings.hpp"

#include <optional>
#include <stdexcept>
#include <string>

namespace squawk::media {

// The file is not one the library accepts, or is corrupt; what() is the reason a client sees.
class UnacceptableMedia : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct Inspection {
    std::string kind;  // image, audio, video, document
    std::string mime_type;
    std::string extension;
    std::optional<int> width;
    std::optional<int> height;
    std::optional<double> duration_seconds;
};

// Throws UnacceptableMedia for an unsupported or corrupt file; other exceptions when the tools
// themselves fail (libmagic without its database, ffprobe missing). Runs ffprobe for images,
// audio and video: it blocks the calling thread up to media.probe_timeout_seconds.
Inspection inspect_media(const std::string& path, const config::MediaSettings& settings);

}  // namespace squawk::media
