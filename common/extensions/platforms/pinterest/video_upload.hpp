// A video pin's media: registered with POST /v5/media, its file streamed to the upload address
// that answer hands out (a multipart POST carrying the signed upload_parameters), then read back
// with GET /v5/media/{media_id} until Pinterest has processed it.
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <chrono>
#include <optional>
#include <string>

namespace squawk::social::pinterest {

// The largest video Pinterest takes (2 GB); the upload streams it from its file.
inline constexpr long long kMaxVideoUploadBytes = 2LL * 1024 * 1024 * 1024;

struct MediaUpload {
    std::string media_id;  // ready for a pin once the failure is empty
    std::optional<PlatformFailure> failure;
};

// `stall_timeout` ends the file's upload only when no bytes moved for that long: a large video
// takes as long as it needs.
MediaUpload upload_video(PlatformApi& api, const http::HeaderList& auth, const Video& video,
                         std::chrono::milliseconds stall_timeout);

}  // namespace squawk::social::pinterest
