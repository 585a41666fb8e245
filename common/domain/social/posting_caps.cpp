#include "common/domain/social/posting_caps.hpp"

#include <algorithm>

namespace squawk::social {
namespace {

struct PlatformCap {
    std::string_view allowance;
    int per_day;
};

constexpr PlatformCap kDailyCaps[] = {
    {"threads", 250},  {"instagram", 100},   {"facebook", 100},    {"x", 50},
    {"pinterest", 25}, {"tiktok:video", 15}, {"tiktok:photo", 15},
};
constexpr int kDefaultDailyCap = 50;

std::optional<CapReached> over(const std::vector<time::TimePoint>& sends, int allowed,
                               std::chrono::hours window, time::TimePoint now, const char* limit) {
    const auto since = now - window;
    std::vector<time::TimePoint> inside;
    for (const auto t : sends)
        if (t > since) inside.push_back(t);
    if (static_cast<int>(inside.size()) < allowed) return std::nullopt;
    // The send that must leave the window before one more fits: with `allowed` slots and n in
    // use, the (n - allowed + 1)th oldest.
    std::sort(inside.begin(), inside.end());
    const auto frees = inside[inside.size() - static_cast<size_t>(allowed)];
    return CapReached{limit, allowed, frees + window};
}

}  // namespace

std::string allowance_of(std::string_view platform, bool video) {
    if (platform == "tiktok") return video ? "tiktok:video" : "tiktok:photo";
    return std::string(platform);
}

int daily_cap(std::string_view allowance) {
    for (const auto& cap : kDailyCaps)
        if (cap.allowance == allowance) return cap.per_day;
    return kDefaultDailyCap;
}

std::optional<CapReached> check_caps(std::string_view allowance, const RecentSends& sends,
                                     time::TimePoint now) {
    auto hourly = over(sends.any_platform_hour, kHourlyCap, std::chrono::hours(1), now, "hourly");
    auto daily =
        over(sends.same_platform_day, daily_cap(allowance), std::chrono::hours(24), now, "daily");
    // With both reached, the retry must wait for the later of the two.
    if (hourly && daily) return hourly->retry_at >= daily->retry_at ? hourly : daily;
    return hourly ? hourly : daily;
}

}  // namespace squawk::social
