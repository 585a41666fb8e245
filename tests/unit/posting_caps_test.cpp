// Posting caps of spec 8.2 as a decision over an account's recent sends: per platform per rolling
// day, 25 per rolling hour across platforms, and the retry time when a cap is reached.
#include "common/domain/social/posting_caps.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using std::chrono::hours;
using std::chrono::minutes;

namespace {

std::vector<time::TimePoint> sends_at(time::TimePoint now, int n, minutes spacing, minutes age) {
    std::vector<time::TimePoint> out;
    for (int i = 0; i < n; ++i) out.push_back(now - age - spacing * i);
    return out;
}

}  // namespace

TEST_CASE("daily caps follow the platform table and default to 50", "[unit][caps]") {
    CHECK(social::daily_cap("threads") == 250);
    CHECK(social::daily_cap("instagram") == 100);
    CHECK(social::daily_cap("facebook") == 100);
    CHECK(social::daily_cap("x") == 50);
    CHECK(social::daily_cap("pinterest") == 25);
    CHECK(social::daily_cap("tiktok:video") == 15);
    CHECK(social::daily_cap("tiktok:photo") == 15);
    CHECK(social::daily_cap("telegram") == 50);
    CHECK(social::daily_cap("discord") == 50);
}

TEST_CASE("the 25th send of an hour is allowed and the 26th names the hourly cap and retry time",
          "[unit][caps]") {
    const auto now = time::now();
    social::RecentSends sends;
    sends.any_platform_hour = sends_at(now, 24, minutes(2), minutes(1));
    CHECK_FALSE(social::check_caps("telegram", sends, now));
    sends.any_platform_hour = sends_at(now, 25, minutes(2), minutes(1));
    const auto cap = social::check_caps("telegram", sends, now);
    REQUIRE(cap);
    CHECK(cap->limit == "hourly");
    CHECK(cap->allowed == 25);
    // The oldest send (49 minutes ago) leaves the window in 11 minutes.
    CHECK(cap->retry_at == now - minutes(49) + hours(1));
}

TEST_CASE("sends older than the window do not count", "[unit][caps]") {
    const auto now = time::now();
    social::RecentSends sends;
    sends.any_platform_hour = sends_at(now, 30, minutes(1), minutes(61));
    sends.same_platform_day = sends_at(now, 60, minutes(1), hours(25));
    CHECK_FALSE(social::check_caps("discord", sends, now));
}

TEST_CASE("the daily cap counts the platform's sends of the last 24 hours", "[unit][caps]") {
    const auto now = time::now();
    social::RecentSends sends;
    sends.same_platform_day = sends_at(now, 25, minutes(10), hours(2));
    const auto cap = social::check_caps("pinterest", sends, now);
    REQUIRE(cap);
    CHECK(cap->limit == "daily");
    CHECK(cap->allowed == 25);
    CHECK(cap->retry_at == now - hours(2) - minutes(240) + hours(24));
    CHECK_FALSE(social::check_caps("telegram", sends, now));
}

TEST_CASE("with both caps reached the retry waits for the later window", "[unit][caps]") {
    const auto now = time::now();
    social::RecentSends sends;
    sends.any_platform_hour = sends_at(now, 25, minutes(1), minutes(1));
    sends.same_platform_day = sends_at(now, 50, minutes(1), minutes(1));
    const auto cap = social::check_caps("telegram", sends, now);
    REQUIRE(cap);
    CHECK(cap->limit == "daily");
}

TEST_CASE("TikTok videos and photos count against separate daily allowances of 15",
          "[unit][social]") {
    CHECK(social::allowance_of("tiktok", true) == "tiktok:video");
    CHECK(social::allowance_of("tiktok", false) == "tiktok:photo");
    CHECK(social::allowance_of("x", true) == "x");
    const auto now = time::now();
    social::RecentSends videos;
    for (int i = 0; i < 15; ++i)
        videos.same_platform_day.push_back(now - std::chrono::hours(20 - i));
    const auto cap = social::check_caps(social::allowance_of("tiktok", true), videos, now);
    REQUIRE(cap);
    CHECK(cap->allowed == 15);
    // The photo allowance counts only photos: none were sent.
    CHECK_FALSE(social::check_caps(social::allowance_of("tiktok", false), {}, now));
}
