// TikTok's media transfer for FILE_UPLOAD videos: the chunk plan announced when the post is
// initialized, then each chunk PUT in order to the upload_url TikTok handed out, with its
// Content-Range.
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <optional>
#include <string>

namespace squawk::social::tiktok {

// TikTok's chunk rules: chunks of 5 MB to 64 MB, the last one taking the trailing bytes (up to
// 128 MB), total_chunk_count = floor(video_size / chunk_size); a video smaller than a chunk goes
// whole, as one chunk of its own size.
struct ChunkPlan {
    long long chunk_size = 0;
    long long total_chunk_count = 0;
};
ChunkPlan chunk_plan(long long video_size);

// PUTs the video's chunks as `plan` announced them. Nothing once TikTok took the last one; the
// failure otherwise: a chunk short of the last one publishes nothing (not accepted, to be tried
// again), while the last one unanswered leaves the post's outcome unknown.
std::optional<PlatformFailure> upload_chunks(PlatformApi& api, const std::string& upload_url,
                                             const Video& video, const ChunkPlan& plan);

}  // namespace squawk::social::tiktok
