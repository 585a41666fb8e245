// Facebook's limit of 30 reels per Page published through the API in a moving 24 hours, counted
// from Squawk's own publishing (the account's reel targets published in the window or being
// published now), so that a reel over it is refused when the post is created or edited rather
// than by Facebook at publish time.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/social/connector.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace squawk::social::facebook {

inline constexpr int kReelsPerDay = 30;

struct ReelUsage {
    int limit = kReelsPerDay;
    int used = 0;
    int remaining = kReelsPerDay;
    // When one more reel fits: now while some remain, else when the oldest counted leaves the
    // window.
    time::TimePoint next_available_at;
};

class ReelLimitRepository {
  public:
    // When each of the account's reels published since `since` went out, and (as when their send
    // started) those being published now; `except_post_id` (0: none) is left out.
    static std::vector<time::TimePoint> recent_reels(db::Session& s, long long account_id,
                                                     time::TimePoint since,
                                                     long long except_post_id);
};

ReelUsage reel_usage(db::Session& s, long long account_id, time::TimePoint now,
                     long long except_post_id = 0);

// For creating or editing a post with a facebook target: when its post_type is "reel", throws
// 422 PLATFORM_DAILY_LIMIT_REACHED (details account_id, limit, used, next_available_at) for the
// first of `accounts` ({public id, row id}) with no reel left; `except_post_id` is the post being
// edited (0 when creating), whose own reel does not count against it.
void check_reel_limit(db::Session& s,
                      const std::vector<std::pair<std::string, long long>>& accounts,
                      std::string_view post_type, time::TimePoint now,
                      long long except_post_id = 0);

// PlatformFactory::admit_post: check_reel_limit for the post's facebook accounts.
void admit_post(db::Session& s, const PostAdmission& post);

}  // namespace squawk::social::facebook
