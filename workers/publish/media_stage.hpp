// The publish task's processing_media stage: probes every media URL of the message at once (one
// fiber each), plans how the platform gets them, downloads those it takes only as uploads and
// adjusts the message accordingly.
#pragma once

#include "common/core/fs/work_files.hpp"
#include "common/domain/jobs/job.hpp"
#include "common/domain/social/connector.hpp"
#include "workers/tasks/task_context.hpp"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>

namespace squawk::workers::publish {

struct MediaStage {
    nlohmann::json fixes = nlohmann::json::array();  // the fixes applied or attempted
    std::optional<nlohmann::json> problem;           // the target fails with it
    // Where a video was downloaded (and transcoded): kept until the publish ends.
    std::shared_ptr<fs::ScratchDirectory> files;
};

// Adjusts `message` for `connector`'s media rules and returns the fixes. A video is downloaded to
// a file (transcoded when the platform does not take its container) and set as message.video. When
// a host failed for now, the target goes back to queued and RetryableError is thrown (nothing was
// sent); on the job's last attempt that failure becomes a MEDIA_UNAVAILABLE problem instead.
MediaStage process_media(const jobs::ClaimedJob& job, TaskContext& context, long long target_id,
                         const social::Connector& connector, social::Message& message);

// Resolves and checks a URL the task fetches (security.allow_private_targets) on the blocking
// executor, so only the calling fiber waits for DNS.
social::TargetCheck target_check(TaskContext& context);

}  // namespace squawk::workers::publish
