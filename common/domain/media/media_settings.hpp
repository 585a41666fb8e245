// Where generated and uploaded files are kept and how large uploads may be. Section [media]; the
// rows are in media_settings.cpp.
#pragma once

#include "common/core/config/config_fwd.hpp"

#include <string>

namespace squawk::config {

struct MediaSettings {
    std::string dir = "media";
    // One uploaded file, direct or through an upload URL (spec 8.3: up to 200 MB).
    long long max_upload_bytes = 200LL * 1024 * 1024;
    // Memory for uploads in progress, summed over every reactor thread: each holds its buffer on
    // the way to disk (media::kUploadBufferBytes, less for a smaller file); an upload that would
    // pass it waits for none and answers 503 with Retry-After.
    long long upload_memory_budget_bytes = 64LL * 1024 * 1024;
    // How long an upload URL stays usable.
    int upload_url_ttl_seconds = 3600;
    // ffprobe reads audio and video durations and streams; it is killed after this long.
    std::string ffprobe = "ffprobe";
    int probe_timeout_seconds = 20;
    // ffmpeg transcodes a post's video the platform does not take as it is; killed after this
    // long.
    std::string ffmpeg = "ffmpeg";
    int transcode_timeout_seconds = 900;
};

SectionSchema<MediaSettings> media_schema();

}  // namespace squawk::config
