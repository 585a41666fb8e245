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

// The daily allowance a send counts against: the platform's, or for a platform with separate
// allowances by kind (TikTok: videos and photos, spec 8.2) "<platform>:<kind>".
std::string allowance_of(std::string_view platform, bool video);
// Sends per rolling 24 hours allowed for one account in `allowance` (a platform, or an
// allowance_of key).
int daily_cap(std::string_view allowance);
inline constexpr int kHourlyCap = 25;

// When the account's earlier sends (published, or sent with the outcome pending) happened.
struct RecentSends {
    std::vector<time::TimePoint> same_platform_day;  // this allowance, last 24 hours
    std::vector<time::TimePoint> any_platform_hour;  // every platform, last hour
};

struct CapReached {
    std::string limit;  // "daily" or "hourly"
    int allowed = 0;
    time::TimePoint retry_at;  // when the oldest counted send leaves the window
};

// Nothing when one more send is allowed at `now`.
std::optional<CapReached> check_caps(std::string_view allowance, const RecentSends& sends,
                                     time::TimePoint now);

}  // namespace squawk::social
