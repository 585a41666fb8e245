// SQL for what the platforms report of published posts: one row per post target and UTC day (the
// day's latest reading), and the lease on the targets whose reading is due.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/social/account_repository.hpp"
#include "common/domain/social/connector.hpp"

#include <string>
#include <vector>

namespace squawk::social {

// A published target whose counts are due, with the account whose platform and credentials read
// them.
struct DuePostTarget {
    long long id = 0;
    std::string external_id;
    time::TimePoint published_at;
    Account account;
};

// One day's reading of a target.
struct PostMetricsDay {
    std::string date;  // YYYY-MM-DD, UTC
    Metrics metrics;
};

class PostMetricsRepository {
  public:
    // Up to `limit` targets published since `published_since` whose reading is due at `now` (one
    // never read is due), each leased to the caller until `lease_until` (commit to hold the
    // lease). Left out: targets no longer published (unpublished, its message deleted), posts
    // deleted, and accounts that are not connected with a valid token, or are sandbox accounts.
    static std::vector<DuePostTarget> lease_due(db::Session& s, time::TimePoint now,
                                                time::TimePoint published_since,
                                                time::TimePoint lease_until, int limit);
    // The reading taken `at` as its UTC day's row (replacing an earlier one that day); the
    // target's next reading is due at `next_due`.
    static void record(db::Session& s, long long target_id, const Metrics& metrics,
                       time::TimePoint at, time::TimePoint next_due);
    // No reading now; the next is due at `next_due`.
    static void postpone(db::Session& s, long long target_id, time::TimePoint next_due);
    // The target's readings, oldest day first.
    static std::vector<PostMetricsDay> days(db::Session& s, long long target_id);
};

}  // namespace squawk::social
