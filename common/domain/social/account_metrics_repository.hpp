// SQL for what the platforms report of connected accounts: one row per account and UTC day (the
// day's latest reading), and the daily follower counts of a workspace's accounts.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/social/account_repository.hpp"
#include "common/domain/social/connector.hpp"

#include <string>
#include <vector>

namespace squawk::social {

struct FollowerDay {
    std::string date;  // YYYY-MM-DD, UTC
    long long followers = 0;
};

// One connected account's daily follower counts, oldest first; days without a reading are
// absent.
struct FollowerSeries {
    std::string account_id;  // public id
    std::string platform;
    std::string display_name;
    std::vector<FollowerDay> days;
};

class AccountMetricsRepository {
  public:
    // The reading taken `at` as its UTC day's row (replacing an earlier one that day); the
    // account's next reading is due at `next_due`.
    static void record(db::Session& s, long long account_id, const Metrics& metrics,
                       time::TimePoint at, time::TimePoint next_due);
    // No reading now; the next is due at `next_due`.
    static void postpone(db::Session& s, long long account_id, time::TimePoint next_due);
    // Every connected account of the workspace the view sees with its follower counts since
    // `first_day` (YYYY-MM-DD), accounts newest first.
    static std::vector<FollowerSeries> follower_series(db::Session& s, long long workspace_id,
                                                       AccountView view,
                                                       const std::string& first_day);
};

// The UTC day of `t` as YYYY-MM-DD.
std::string utc_day(time::TimePoint t);

// A reading kept as the day's latest in a metrics table of one row per thing and UTC day,
// social_account_metrics (keyed by account_id) or social_post_metrics (by target_id).
enum class MetricsTable { accounts, posts };
void record_metrics_day(db::Session& s, MetricsTable table, long long id, const Metrics& m,
                        time::TimePoint at);

}  // namespace squawk::social
