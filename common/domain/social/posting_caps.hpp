// Posting caps of spec 8.2: how many posts an account may publish per rolling day (by platform)
// and per rolling hour (across platforms), and the decision for one more send.
#pragma once

#include "common/core/time/clock.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::social {

// Sends per rolling 24 hours allowed for one account of `platform`.
int daily_cap(std::string_view platform);
inline constexpr int kHourlyCap = 25;

// When the account's earlier sends (published, or sent with the outcome pending) happened.
struct RecentSends {
    std::vector<time::TimePoint> same_platform_day;  // this platform, last 24 hours
    std::vector<time::TimePoint> any_platform_hour;  // every platform, last hour
};

struct CapReached {
    std::string limit;  // "daily" or "hourly"
    int allowed = 0;
    time::TimePoint retry_at;  // when the oldest counted send leaves the window
};

// Nothing when one more send is allowed at `now`.
std::optional<CapReached> check_caps(std::string_view platform, const RecentSends& sends,
                                     time::TimePoint now);

}  // namespace squawk::social
