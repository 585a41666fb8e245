// A video pin's media: registered with POST /v5/media, its file sent to the upload address that
// answer hands out (a multipart POST carrying the signed upload_parameters), then read back with
// GET /v5/media/{media_id} until Pinterest has processed it.
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <optional>
#include <string>

namespace squawk::social::pinterest {

// The largest video sent: the upload is one multipart request built in memory from the file's
// chunks, so its size bounds the worker's memory; a larger file is refused before any call.
inline constexpr long long kMaxVideoUploadBytes = 32LL * 1024 * 1024;

struct MediaUpload {
    std::string media_id;  // ready for a pin once the failure is empty
    std::optional<PlatformFailure> failure;
};

MediaUpload upload_video(PlatformApi& api, const http::HeaderList& auth, const Video& video);

}  // namespace squawk::social::pinterest
