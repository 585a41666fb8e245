#include "common/domain/social/external_posts.hpp"

#include "common/core/db/sql_text.hpp"
#include "common/domain/events/event_outbox.hpp"
#include "common/domain/social/post.hpp"
#include "common/domain/social/post_repository.hpp"

namespace squawk::social {
namespace {

using db::time_param;

nlohmann::json event_data(long long post_id, const Account& account, const RemotePost& remote) {
    return {{"post_id", post_id},
            {"status", PostStatus::external},
            {"platform", account.platform},
            {"account_id", account.public_id},
            {"platform_post_id", remote.external_id},
            {"url", remote.url ? nlohmann::json(*remote.url) : nullptr},
            {"content", remote.text},
            {"published_at", time::format_iso8601(remote.published_at)}};
}

}  // namespace

ImportOutcome import_external_post(db::Session& s, const Account& account,
                                   const RemotePost& remote) {
    const auto now = time_param(time::now());
    const auto known = s.query_one(
        "SELECT p.id, p.status, p.content FROM social_post_targets t"
        " JOIN social_posts p ON p.id = t.post_id"
        " WHERE t.account_id = ? AND t.external_id = ? FOR UPDATE",
        {account.id, remote.external_id});
    if (known) {
        const long long post_id = known->integer(0);
        if (stored_value<PostStatus>(known->text(1)) != PostStatus::external)
            return ImportOutcome::ours;
        if (known->text(2) == remote.text) return ImportOutcome::unchanged;
        s.execute(
            "UPDATE social_posts SET content = ?, content_hash = ?, updated_at = ?"
            " WHERE id = ?",
            {remote.text, content_hash(remote.text), now, post_id});
        events::emit(s, account.workspace_id, "post.external.updated",
                     event_data(post_id, account, remote));
        return ImportOutcome::updated;
    }
    const auto published = time_param(remote.published_at);
    const long long post_id = s.insert(
        "INSERT INTO social_posts (workspace_id, status, content, content_hash, scheduled_time,"
        " published_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        {account.workspace_id, name_of(PostStatus::external), remote.text,
         content_hash(remote.text), published, published, now, now});
    s.execute(
        "INSERT INTO social_post_targets (post_id, workspace_id, account_id, platform, status,"
        " scheduled_time, external_id, url, published_at, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        {post_id, account.workspace_id, account.id, account.platform,
         name_of(TargetStatus::published), published, remote.external_id,
         db::optional_param(remote.url), published, now, now});
    events::emit(s, account.workspace_id, "post.external.created",
                 event_data(post_id, account, remote));
    return ImportOutcome::created;
}

}  // namespace squawk::social
