// YouTube's resumable upload: a session started with the video's metadata, then the file in
// chunks that YouTube acknowledges with 308 and the Range it holds, asked again (PUT with
// Content-Range bytes */total) when an answer is lost, so that nothing it has is sent twice and a
// finished video is never uploaded a second time.
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <nlohmann/json.hpp>

namespace squawk::social::youtube {

inline constexpr std::string_view kUploadScope = "https://www.googleapis.com/auth/youtube.upload";

// Uploads `video` as a new YouTube video described by `resource` (snippet and status): the video
// resource YouTube made, or why there is none. Chunks are kVideoChunkBytes, a multiple of the
// 256 KiB YouTube wants, read from the file one at a time.
Answer upload_video(PlatformApi& api, const http::HeaderList& auth, const Video& video,
                    const nlohmann::json& resource);

}  // namespace squawk::social::youtube
