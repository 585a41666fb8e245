#include "common/extensions/platforms/tiktok/upload.hpp"

#include "common/extensions/platforms/tiktok/answers.hpp"

#include <algorithm>

namespace squawk::social::tiktok {

// kVideoChunkBytes (8 MiB) is within TikTok's 5 MB to 64 MB, so every chunk but the last is read
// in one piece; the last, up to twice that, in two.
ChunkPlan chunk_plan(long long video_size) {
    const auto chunk = static_cast<long long>(kVideoChunkBytes);
    if (video_size < chunk) return {video_size, 1};
    return {chunk, video_size / chunk};
}

std::optional<PlatformFailure> upload_chunks(PlatformApi& api, const std::string& upload_url,
                                             const Video& video, const ChunkPlan& plan) {
    for (long long index = 0; index < plan.total_chunk_count; ++index) {
        const bool last = index + 1 == plan.total_chunk_count;
        const long long first = index * plan.chunk_size;
        const long long length = last ? video.bytes - first : plan.chunk_size;
        std::string chunk;
        for (long long read = 0; read < length;) {
            auto piece = video.read_chunk(first + read, static_cast<size_t>(std::min<long long>(
                                                            length - read, kVideoChunkBytes)));
            if (piece.empty()) return refusal("the video file is shorter than its announced size");
            read += static_cast<long long>(piece.size());
            chunk += piece;
        }
        const std::string range = "bytes " + std::to_string(first) + "-" +
                                  std::to_string(first + length - 1) + "/" +
                                  std::to_string(video.bytes);
        const auto answer = api.send("PUT", upload_url, {{"Content-Range", range}},
                                     video.content_type, std::move(chunk));
        if (answer.status / 100 == 2) continue;
        // Any other status is an answer read_answer turns into a failure.
        auto failure =
            answer.status == 0 ? transport_failure(answer) : *read(answer, "video.publish").failure;
        failure.reason = "chunk " + std::to_string(index + 1) + " of " +
                         std::to_string(plan.total_chunk_count) + ": " + failure.reason;
        return last ? failure : nothing_published(std::move(failure));
    }
    return std::nullopt;
}

}  // namespace squawk::social::tiktok
