#include "common/domain/social/account_metrics_repository.hpp"

#include "common/core/db/sql_text.hpp"
#include "common/domain/social/account_status.hpp"

#include <map>

namespace squawk::social {

using db::optional_param;
using db::time_param;

std::string utc_day(time::TimePoint t) {
    return time::format_iso8601(t).substr(0, 10);
}

// Both tables have the same counts after their key; the statements differ only in table and key.
constexpr const char* kUpsertTail =
    " day, followers, following, impressions, reach, likes, comments, shares, saves, video_views,"
    " recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE"
    " followers = VALUES(followers), following = VALUES(following),"
    " impressions = VALUES(impressions), reach = VALUES(reach), likes = VALUES(likes),"
    " comments = VALUES(comments), shares = VALUES(shares), saves = VALUES(saves),"
    " video_views = VALUES(video_views), recorded_at = VALUES(recorded_at)";

void record_metrics_day(db::Session& s, MetricsTable table, long long id, const Metrics& m,
                        time::TimePoint at) {
    static const std::string account_sql =
        std::string("INSERT INTO social_account_metrics (account_id,") + kUpsertTail;
    static const std::string post_sql =
        std::string("INSERT INTO social_post_metrics (target_id,") + kUpsertTail;
    s.execute(table == MetricsTable::accounts ? account_sql : post_sql,
              {id, utc_day(at), optional_param(m.followers), optional_param(m.following),
               optional_param(m.impressions), optional_param(m.reach), optional_param(m.likes),
               optional_param(m.comments), optional_param(m.shares), optional_param(m.saves),
               optional_param(m.video_views), time_param(at)});
}

void AccountMetricsRepository::record(db::Session& s, long long account_id, const Metrics& m,
                                      time::TimePoint at, time::TimePoint next_due) {
    record_metrics_day(s, MetricsTable::accounts, account_id, m, at);
    postpone(s, account_id, next_due);
}

void AccountMetricsRepository::postpone(db::Session& s, long long account_id,
                                        time::TimePoint next_due) {
    s.execute("UPDATE social_accounts SET metrics_due_at = ? WHERE id = ?",
              {time_param(next_due), account_id});
}

std::vector<FollowerSeries> AccountMetricsRepository::follower_series(
    db::Session& s, long long workspace_id, AccountView view, const std::string& first_day) {
    std::vector<FollowerSeries> out;
    std::map<long long, size_t> index;
    // Only the accounts listed here are filled in below: a sandbox account has no readings.
    for (const auto& r :
         s.query("SELECT id, public_id, platform, display_name FROM social_accounts"
                 " WHERE workspace_id = ? AND status = ? AND sandbox IN (0, ?)"
                 " AND public_id IS NOT NULL ORDER BY id DESC",
                 {workspace_id, name_of(AccountStatus::connected), sandbox_param(view)})) {
        index[r.integer(0)] = out.size();
        out.push_back({r.text(1), r.text(2), r.optional_text(3).value_or(""), {}});
    }
    for (const auto& r :
         s.query("SELECT m.account_id, DATE_FORMAT(m.day, '%Y-%m-%d'), m.followers"
                 " FROM social_account_metrics m JOIN social_accounts a ON a.id = m.account_id"
                 " WHERE a.workspace_id = ? AND a.status = ? AND m.day >= ?"
                 " AND m.followers IS NOT NULL ORDER BY m.account_id, m.day",
                 {workspace_id, name_of(AccountStatus::connected), first_day})) {
        const auto found = index.find(r.integer(0));
        if (found != index.end()) out[found->second].days.push_back({r.text(1), r.integer(2)});
    }
    return out;
}

}  // namespace squawk::social
