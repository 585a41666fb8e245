// The publish task's processing_media stage: probes every media URL of the message at once (one
// fiber each), plans how the platform gets them, downloads those it takes only as uploads and
// adjusts the message accordingly. Probes, downloads, readings and transcodes go through the
// media cache, so a burst of posts sharing a URL fetches it once; prefetch_media prepares the
// same ahead of a scheduled post's time.
#pragma once

#include "common/core/fs/work_files.hpp"
#include "common/domain/jobs/job.hpp"
#include "common/domain/social/connector.hpp"
#include "workers/publish/media_cache.hpp"
#include "workers/tasks/task_context.hpp"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace squawk::workers::publish {

struct MediaStage {
    nlohmann::json fixes = nlohmann::json::array();  // the fixes applied or attempted
    std::optional<nlohmann::json> problem;           // the target fails with it
    // The video's file (downloaded, and transcoded): kept until the publish ends.
    std::shared_ptr<const fs::OwnedFile> files;
};

// What preparing media uses besides the post.
struct MediaTools {
    const config::Config& config;
    BlockingExecutor& executor;
    http::Client& http;
    MediaCache& cache;
};

// Adjusts `message` for `connector`'s media rules and returns the fixes. A video is downloaded to
// a file (transcoded when the platform does not take its container) and set as message.video. When
// a host failed for now, the target goes back to queued and RetryableError is thrown (nothing was
// sent); on the job's last attempt that failure becomes a MEDIA_UNAVAILABLE problem instead.
MediaStage process_media(const jobs::ClaimedJob& job, TaskContext& context, MediaCache& cache,
                         long long target_id, const social::Connector& connector,
                         social::Message& message);

// Probes, downloads, reads and transcodes into `tools.cache` what process_media will need for
// `media_urls` on `connector`'s platform. Failures are left for the publish to meet.
void prefetch_media(const MediaTools& tools, const social::Connector& connector,
                    const std::vector<std::string>& media_urls);

// The worker's media cache: <media dir>/.publish-cache, bounded by [social] media_cache_bytes and
// media_cache_ttl_seconds; one per process.
std::shared_ptr<MediaCache> publish_media_cache(const config::Config& config);

// Resolves and checks a URL the task fetches (security.allow_private_targets) on the blocking
// executor, so only the calling fiber waits for DNS.
social::TargetCheck target_check(TaskContext& context);
social::TargetCheck target_check(const config::Config& config, BlockingExecutor& executor);

}  // namespace squawk::workers::publish
