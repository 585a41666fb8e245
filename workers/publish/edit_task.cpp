#include "workers/publish/message_change_tasks.hpp"

#include "common/domain/social/post_change_repository.hpp"
#include "workers/errors.hpp"
#include "workers/publish/message_changes.hpp"

namespace squawk::workers::publish {

nlohmann::json EditTask::run(const jobs::ClaimedJob& job, TaskContext& context) {
    if (!context.http()) throw PermanentError("this worker has no HTTP client for editing");
    const auto post = load_post(job, context);
    if (post.status != social::PostStatus::published && post.status != social::PostStatus::partial)
        throw PermanentError(
            "the post is " + std::string(name_of(post.status)) + " now; nothing was edited",
            {{"post_id", post.id}, {"status", post.status}});
    const std::string content = job.payload.value("content", "");
    const auto& link_value = job.payload.value("link", nlohmann::json());
    const std::optional<std::string> link =
        link_value.is_string() ? std::optional<std::string>(link_value.get<std::string>())
                               : std::nullopt;
    social::Message message;
    message.text = social::message_text(content, link);
    message.image_urls = post.media_urls;

    const auto report = apply_to_targets(
        job, context, post, social::TargetErrorCode::platform_edit_failed,
        [&](social::Connector& c, const social::Target& target, const std::string& id) {
            return c.edit(target, id, message);
        },
        [&](db::Session& s, const social::PostTarget& t, time::TimePoint at) {
            social::PostChangeRepository::record_edited(s, t.id, job.id, at);
        });
    nlohmann::json result = settle(job, post, report, "edited");
    // A live post edited with a test key keeps what its platforms show.
    if (report.changed > 0 && (!job.is_test || post.is_test))
        context.in_transaction([&](db::Session& s) {
            social::PostChangeRepository::store_content(s, post.id, content, link, time::now());
        });
    result["content"] = content;
    return result;
}

}  // namespace squawk::workers::publish
