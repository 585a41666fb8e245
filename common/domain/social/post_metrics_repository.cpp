#include "common/domain/social/post_metrics_repository.hpp"

#include "common/core/db/sql_text.hpp"
#include "common/domain/social/account_metrics_repository.hpp"
#include "common/domain/social/account_status.hpp"
#include "common/domain/social/post_status.hpp"

namespace squawk::social {
namespace {

using db::optional_param;
using db::time_column;
using db::time_param;

// SKIP LOCKED: a target, its post or its account locked by other work now is read at a later
// pass, and the lease never waits.
constexpr const char* kDue =
    "SELECT t.id, t.external_id, t.published_at, a.id, a.public_id, a.workspace_id, a.platform,"
    " a.display_name, a.external_id, a.external_handle, a.credentials_enc"
    " FROM social_post_targets t JOIN social_posts p ON p.id = t.post_id"
    " JOIN social_accounts a ON a.id = t.account_id"
    " WHERE t.status = ? AND t.published_at > ? AND t.external_id IS NOT NULL"
    " AND (t.metrics_due_at IS NULL OR t.metrics_due_at < ?) AND p.deleted_at IS NULL"
    " AND a.status = ? AND a.token_valid = 1 AND a.sandbox = 0"
    " ORDER BY t.metrics_due_at LIMIT ? FOR UPDATE SKIP LOCKED";

}  // namespace

std::vector<DuePostTarget> PostMetricsRepository::lease_due(db::Session& s, time::TimePoint now,
                                                            time::TimePoint published_since,
                                                            time::TimePoint lease_until,
                                                            int limit) {
    std::vector<DuePostTarget> due;
    for (const auto& r : s.query(
             kDue, {name_of(TargetStatus::published), time_param(published_since), time_param(now),
                    name_of(AccountStatus::connected), static_cast<long long>(limit)})) {
        DuePostTarget t;
        t.id = r.integer(0);
        t.external_id = r.text(1);
        t.published_at = time_column(r, 2);
        t.account.id = r.integer(3);
        t.account.public_id = r.optional_text(4).value_or("");
        t.account.workspace_id = r.integer(5);
        t.account.platform = r.text(6);
        t.account.identity.display_name = r.optional_text(7).value_or("");
        t.account.identity.external_id = r.optional_text(8).value_or("");
        t.account.identity.handle = r.optional_text(9).value_or("");
        t.account.credentials_sealed = r.optional_text(10).value_or("");
        due.push_back(std::move(t));
    }
    for (const auto& t : due) postpone(s, t.id, lease_until);
    return due;
}

void PostMetricsRepository::record(db::Session& s, long long target_id, const Metrics& m,
                                   time::TimePoint at, time::TimePoint next_due) {
    record_metrics_day(s, MetricsTable::posts, target_id, m, at);
    postpone(s, target_id, next_due);
}

void PostMetricsRepository::postpone(db::Session& s, long long target_id,
                                     time::TimePoint next_due) {
    s.execute("UPDATE social_post_targets SET metrics_due_at = ? WHERE id = ?",
              {time_param(next_due), target_id});
}

std::vector<PostMetricsDay> PostMetricsRepository::days(db::Session& s, long long target_id) {
    std::vector<PostMetricsDay> out;
    for (const auto& r :
         s.query("SELECT DATE_FORMAT(day, '%Y-%m-%d'), followers, following, impressions, reach,"
                 " likes, comments, shares, saves, video_views FROM social_post_metrics"
                 " WHERE target_id = ? ORDER BY day",
                 {target_id})) {
        PostMetricsDay day;
        day.date = r.text(0);
        auto& m = day.metrics;
        m.followers = r.optional_integer(1);
        m.following = r.optional_integer(2);
        m.impressions = r.optional_integer(3);
        m.reach = r.optional_integer(4);
        m.likes = r.optional_integer(5);
        m.comments = r.optional_integer(6);
        m.shares = r.optional_integer(7);
        m.saves = r.optional_integer(8);
        m.video_views = r.optional_integer(9);
        out.push_back(std::move(day));
    }
    return out;
}

}  // namespace squawk::social
