#include "workers/publish/message_change_tasks.hpp"

#include "common/domain/social/post_change_repository.hpp"
#include "workers/errors.hpp"
#include "workers/publish/message_changes.hpp"

namespace squawk::workers::publish {

nlohmann::json UnpublishTask::run(const jobs::ClaimedJob& job, TaskContext& context) {
    if (!context.http()) throw PermanentError("this worker has no HTTP client for unpublishing");
    const auto post = load_post(job, context);
    const bool records = !job.is_test || post.is_test;
    const auto report = apply_to_targets(
        job, context, post, social::TargetErrorCode::platform_delete_failed,
        [](social::Connector& c, const social::Target& target, const std::string& id) {
            return c.remove(target, id);
        },
        [&](db::Session& s, const social::PostTarget& t, time::TimePoint at) {
            social::PostChangeRepository::record_unpublished(s, t.id, job.id, at);
        });
    nlohmann::json result = settle(job, post, report, "deleted");
    const bool settled = records && context.in_transaction([&](db::Session& s) {
        return social::PostChangeRepository::settle_unpublished(s, post.id, time::now());
    });
    result["status"] = settled ? social::PostStatus::unpublished : post.status;
    return result;
}

}  // namespace squawk::workers::publish
