#include "common/domain/social/post_change_service.hpp"

#include "common/core/error/api_error.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "common/domain/social/post_change_repository.hpp"
#include "common/domain/social/post_repository.hpp"
#include "common/domain/social/reconnect_check.hpp"

#include <algorithm>

namespace squawk::social {
namespace {

enum class Change { edit, unpublish };

bool was_published(const Post& post) {
    return post.status == PostStatus::published || post.status == PostStatus::partial;
}

// The post locked for the change, or the reason it cannot change now.
Post lock_changeable(db::Session& s, long long workspace_id, long long post_id, Change change) {
    auto post = PostRepository::find(s, workspace_id, post_id, true);
    if (!post) throw ApiError(ErrorCode::NotFound, "No post with this id.");
    const char* verb = change == Change::edit ? "edited" : "unpublished";
    if (post->status == PostStatus::external)
        throw ApiError(ErrorCode::Conflict,
                       std::string("This post was published outside Squawk and imported; it "
                                   "cannot be ") +
                           verb + " here.",
                       {{"status", post->status}});
    if (!was_published(*post))
        throw ApiError(ErrorCode::Conflict,
                       std::string("Only published or partial posts can be ") + verb +
                           "; this post is " + name_of(post->status) +
                           (change == Change::edit && (post->status == PostStatus::scheduled ||
                                                       post->status == PostStatus::draft)
                                ? " (change it with PATCH)."
                                : "."),
                       {{"status", post->status}});
    if (const auto running = PostChangeRepository::change_in_flight(s, post->id)) {
        const auto job = jobs::JobRepository::find_by_id(s, *running);
        throw ApiError(ErrorCode::Conflict,
                       "An edit or unpublish of this post is still running; wait for its job.",
                       {{"job_id", job ? nlohmann::json(job->public_id) : nlohmann::json()}});
    }
    // The change is the platform's to make, which no longer accepts these accounts' tokens.
    refuse_accounts_to_reconnect(s, published_targets(*post));
    return std::move(*post);
}

// 409 when a published target's platform cannot make the change: nothing would be done there.
void require_support(const Post& post, const LimitsTable& limits, Change change) {
    std::vector<std::string> unsupported;
    for (const auto& t : published_targets(post)) {
        const auto found = limits.find(t.platform);
        const bool can =
            found != limits.end() &&
            (change == Change::edit ? found->second.can_edit : found->second.can_remove);
        if (!can &&
            std::find(unsupported.begin(), unsupported.end(), t.platform) == unsupported.end())
            unsupported.push_back(t.platform);
    }
    if (unsupported.empty()) return;
    std::string list;
    for (const auto& p : unsupported) list += (list.empty() ? "" : ", ") + p;
    throw ApiError(ErrorCode::Conflict,
                   "This post went to " + list + ", whose published messages cannot be " +
                       (change == Change::edit ? "edited" : "deleted") +
                       " through the platform's API; nothing was changed.",
                   {{"platforms", unsupported}});
}

}  // namespace

std::vector<PostTarget> published_targets(const Post& post) {
    std::vector<PostTarget> out;
    for (const auto& t : post.targets)
        if (t.status == TargetStatus::published && t.external_id) out.push_back(t);
    return out;
}

AcceptedEdit PostChangeService::edit(long long workspace_id, bool is_test, long long post_id,
                                     const PostEdit& edit) {
    nlohmann::json warnings = nlohmann::json::object();
    const nlohmann::json payload = {
        {"post_id", post_id},
        {"content", edit.content},
        {"link", edit.link ? nlohmann::json(*edit.link) : nlohmann::json()}};
    const auto job = submitter_.submit_with(
        workspace_id, jobs::kEditPost, payload, is_test, [&](db::Session& s, const jobs::Job& j) {
            const Post post = lock_changeable(s, workspace_id, post_id, Change::edit);
            require_support(post, limits_, Change::edit);
            PostInput input;
            input.content = edit.content;
            input.link = edit.link;
            input.media_urls = post.media_urls;
            std::vector<std::string> platforms;
            for (const auto& t : published_targets(post))
                if (std::find(platforms.begin(), platforms.end(), t.platform) == platforms.end())
                    platforms.push_back(t.platform);
            const auto review = review_for_platforms(input, platforms, limits_);
            if (!review.problems.empty()) {
                nlohmann::json fields = nlohmann::json::object();
                for (const auto& [field, reason] : review.problems) fields[field] = reason;
                throw validation_error(fields);
            }
            warnings = review.warnings;
            PostChangeRepository::start_change(s, post.id, j.id);
        });
    return {job, std::move(warnings)};
}

std::optional<jobs::Job> PostChangeService::unpublish(long long workspace_id, bool is_test,
                                                      long long post_id) {
    const auto current =
        mysql_.run([&](db::Session& s) { return PostRepository::find(s, workspace_id, post_id); });
    if (!current) throw ApiError(ErrorCode::NotFound, "No post with this id.");
    if (!was_published(*current)) return std::nullopt;
    const auto job = submitter_.submit_with(
        workspace_id, jobs::kUnpublishPost, {{"post_id", post_id}}, is_test,
        [&](db::Session& s, const jobs::Job& j) {
            const Post post = lock_changeable(s, workspace_id, post_id, Change::unpublish);
            require_support(post, limits_, Change::unpublish);
            PostChangeRepository::start_change(s, post.id, j.id);
        });
    return job;
}

}  // namespace squawk::social
