// RateLimiter against the real Redis: the tier read from the cached account count, the minute
// allowance, and the per-second ceiling of analytics routes whose refusals do not count.
#include "common/core/rate_limit/rate_limiter.hpp"
#include "common/domain/accounts/connected_accounts.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

using namespace squawk;

namespace {

redis::RedisClient client() {
    auto settings = testing::ServerEnv::get().redis;
    settings.prefix = testing::unique_name("rl");
    return redis::RedisClient(settings);
}

// Starts right after a second boundary so a burst stays inside one second.
void align_to_second() {
    using namespace std::chrono;
    const auto now = system_clock::now().time_since_epoch();
    const auto into = duration_cast<milliseconds>(now) % 1000;
    if (into > milliseconds(300)) std::this_thread::sleep_for(milliseconds(1000) - into);
}

}  // namespace

TEST_CASE("the tier comes from the connected-account count, loaded once and then cached") {
    auto redis = client();
    const rate_limit::RateLimiter limiter{config::RateLimitSettings{}};
    int loads = 0;
    rate_limit::Subject subject;
    subject.bucket = "live";
    subject.workspace_id = 7;
    const auto d = limiter.check(redis, subject, [&] {
        ++loads;
        return 5LL;
    });
    CHECK(d.allowed);
    CHECK(d.limit == 600);
    CHECK(d.remaining == 599);
    limiter.check(redis, subject, [&] {
        ++loads;
        return 5LL;
    });
    CHECK(loads == 1);
    accounts::ConnectedAccounts::invalidate(redis, 7);
    CHECK(limiter
              .check(redis, subject,
                     [&] {
                         ++loads;
                         return 0LL;
                     })
              .limit == 60);
    CHECK(loads == 2);
}

TEST_CASE(
    "the per-second ceiling refuses with a one-second retry and refusals do not count "
    "toward the minute") {
    auto redis = client();
    const rate_limit::RateLimiter limiter{config::RateLimitSettings{}};
    rate_limit::Subject subject;
    subject.bucket = "key:1";
    subject.fixed_limit = 120;  // ceiling: max(6, 120 / 60) = 6 per second
    subject.per_second_ceiling = true;
    align_to_second();
    int allowed = 0;
    rate_limit::Decision refused;
    for (int i = 0; i < 10; ++i) {
        const auto d = limiter.check(redis, subject, [] { return 0LL; });
        if (d.allowed)
            ++allowed;
        else
            refused = d;
    }
    CHECK(allowed == 6);
    CHECK(refused.refused_by_second_ceiling);
    CHECK(refused.retry_after_seconds == 1);
    CHECK(refused.remaining == 114);
    // Outside the ceiling the same key counts normally.
    subject.per_second_ceiling = false;
    CHECK(limiter.check(redis, subject, [] { return 0LL; }).remaining == 113);
}

TEST_CASE("a fixed limit refuses exactly the requests beyond it in the minute") {
    auto redis = client();
    const rate_limit::RateLimiter limiter{config::RateLimitSettings{}};
    rate_limit::Subject subject;
    subject.bucket = "key:2";
    subject.fixed_limit = 3;
    const long long second = static_cast<long long>(std::time(nullptr)) % 60;
    if (second >= 58) std::this_thread::sleep_for(std::chrono::seconds(3));
    for (int i = 0; i < 3; ++i) CHECK(limiter.check(redis, subject, [] { return 0LL; }).allowed);
    const auto d = limiter.check(redis, subject, [] { return 0LL; });
    CHECK_FALSE(d.allowed);
    CHECK_FALSE(d.refused_by_second_ceiling);
    CHECK(d.retry_after_seconds >= 1);
    CHECK(d.retry_after_seconds <= 60);
}

TEST_CASE("a check made on condition counts nothing once the condition's counter has moved") {
    auto redis = client();
    const rate_limit::RateLimiter limiter{config::RateLimitSettings{}};
    rate_limit::Subject subject;
    subject.bucket = "key:1";
    subject.workspace_id = 9;
    subject.fixed_limit = 100;
    const auto none = [] { return 0LL; };
    const rate_limit::Precondition at_zero{redis.key("epoch"), 0};
    const auto first = limiter.check_if(redis, subject, at_zero, none);
    REQUIRE(first.has_value());
    CHECK(first->remaining == 99);

    redis.command({"INCR", redis.key("epoch")});
    CHECK_FALSE(limiter.check_if(redis, subject, at_zero, none).has_value());

    const rate_limit::Precondition at_one{redis.key("epoch"), 1};
    const auto next = limiter.check_if(redis, subject, at_one, none);
    REQUIRE(next.has_value());
    // 98 when the refused check counted nothing (99 if a new minute began in between).
    CHECK(next->remaining == (next->reset_unix() == first->reset_unix() ? 98 : 99));
}

TEST_CASE("a lease is granted from what the minute has left and its unspent tokens come back") {
    auto redis = client();
    const rate_limit::RateLimiter limiter{config::RateLimitSettings{}};
    rate_limit::Subject subject;
    subject.bucket = "key:9";
    subject.workspace_id = 9;
    subject.fixed_limit = 100;
    const long long second = static_cast<long long>(std::time(nullptr)) % 60;
    if (second >= 58) std::this_thread::sleep_for(std::chrono::seconds(3));
    const auto none = [] { return 0LL; };
    const rate_limit::Precondition epoch{redis.key("epoch"), 0};
    const auto lease = limiter.check_if(redis, subject, epoch, none, {30, 0, 0});
    REQUIRE(lease);
    CHECK(lease->allowed);
    CHECK(lease->granted == 30);
    CHECK(lease->remaining == 70);
    // More than is left: the rest of the minute, no more.
    const auto rest = limiter.check_if(redis, subject, epoch, none, {90, 0, 0});
    CHECK(rest->granted == 70);
    CHECK(rest->remaining == 0);
    CHECK_FALSE(limiter.check_if(redis, subject, epoch, none)->allowed);
    // Ten tokens of the first lease went unspent: handed back, they pay for this check.
    const auto after_refund =
        limiter.check_if(redis, subject, epoch, none, {1, 10, lease->reset_ms});
    CHECK(after_refund->allowed);
    CHECK(after_refund->remaining == 9);
}
