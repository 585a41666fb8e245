// What social.edit and social.unpublish share: one platform change applied to each published
// target of a post, each done target recorded at once (a retry skips it), and the outcome of each.
#pragma once

#include "common/domain/social/connector.hpp"
#include "common/domain/social/post.hpp"
#include "common/domain/social/target_error.hpp"
#include "workers/tasks/task_context.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <optional>
#include <string>

namespace squawk::workers::publish {

// The platform call for one target: the connector, the account's target and the message id.
using ApplyChange = std::function<social::MessageChange(social::Connector&, const social::Target&,
                                                        const std::string& external_id)>;
// Records a target whose message changed, in the caller's transaction.
using RecordChange = std::function<void(db::Session&, const social::PostTarget&, time::TimePoint)>;

struct ChangeReport {
    nlohmann::json targets = nlohmann::json::array();  // {account_id, platform, status, error}
    int changed = 0;
    int failed = 0;
    // Set when some platform did not accept the change yet and attempts remain.
    std::optional<std::string> retry_reason;
    std::chrono::seconds retry_after{0};
};

// The post the job changes, from its payload and workspace; PermanentError when it is gone.
social::Post load_post(const jobs::ClaimedJob& job, TaskContext& context);

// Applies the change to every published target of `post` not changed by this job yet. A test key
// or a sandbox post calls no platform; only a sandbox post records anything then. A refusal fails
// the target with `refusal_code`; not accepted and unknown outcomes ask for a retry (the change
// may be repeated) until the last attempt, which fails it with PLATFORM_UNAVAILABLE.
ChangeReport apply_to_targets(const jobs::ClaimedJob& job, TaskContext& context,
                              const social::Post& post, social::TargetErrorCode refusal_code,
                              const ApplyChange& apply, const RecordChange& record);

// The job's result once each target was tried: {post_id, <done>: count, failed, sandbox,
// targets}, `done` naming the change ("edited"). Throws RetryableError while a platform may still
// accept it, and PermanentError when no message changed and some failed.
nlohmann::json settle(const jobs::ClaimedJob& job, const social::Post& post,
                      const ChangeReport& report, const std::string& done);

// Whether platforms are left alone for this job: a test key's job or a sandbox post.
bool is_sandbox(const jobs::ClaimedJob& job, const social::Post& post);

}  // namespace squawk::workers::publish
