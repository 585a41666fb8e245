// RateLimiter against the real Redis: the tier read from the cached account count, the minute
// allowance, and the per-second ceiling of analytics routes whose refusals do not count.
#include "common/core/rate_limit/rate_limiter.hpp"
#include "common/domain/accounts/connected_accounts.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

using namespace squawk;

namespace {

// The limiter's clock: Redis's, in milliseconds.
long long redis_now_ms(redis::RedisClient& redis) {
    const auto time = redis.command({"TIME"});
    return std::stoll(time.elements.at(0).text) * 1000 +
           std::stoll(time.elements.at(1).text) / 1000;
}

// Runs `burst(attempt)` until a run starts and ends inside one window of `window_ms` on the
// limiter's clock, and returns that run's result. A run that straddled a window boundary (the
// limiter counted it in two windows) is simply run again under a fresh bucket, rather than
// waiting for the clock to reach a boundary first.
template <class Burst>
auto within_one_window(redis::RedisClient& redis, long long window_ms, Burst burst) {
    for (int attempt = 0;; ++attempt) {
        const long long window = redis_now_ms(redis) / window_ms;
        auto result = burst(attempt);
        if (redis_now_ms(redis) / window_ms == window || attempt == 3) return result;
    }
}

}  // namespace

TEST_CASE("the tier comes from the connected-account count, loaded once and then cached") {
    auto redis = testing::isolated_redis("rl");
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
    auto redis = testing::isolated_redis("rl");
    const rate_limit::RateLimiter limiter{config::RateLimitSettings{}};
    rate_limit::Subject subject;
    subject.bucket = "key:1";
    subject.fixed_limit = 120;  // ceiling: max(6, 120 / 60) = 6 per second
    subject.per_second_ceiling = true;
    int allowed = 0;
    rate_limit::Decision refused;
    within_one_window(redis, 1000, [&](int attempt) {
        subject.bucket = "key:1:" + std::to_string(attempt);
        allowed = 0;
        for (int i = 0; i < 10; ++i) {
            const auto d = limiter.check(redis, subject, [] { return 0LL; });
            if (d.allowed)
                ++allowed;
            else
                refused = d;
        }
        return allowed;
    });
    CHECK(allowed == 6);
    CHECK(refused.refused_by_second_ceiling);
    CHECK(refused.retry_after_seconds == 1);
    CHECK(refused.remaining == 114);
    // Outside the ceiling the same key counts normally.
    subject.per_second_ceiling = false;
    CHECK(limiter.check(redis, subject, [] { return 0LL; }).remaining == 113);
}

TEST_CASE("a fixed limit refuses exactly the requests beyond it in the minute") {
    auto redis = testing::isolated_redis("rl");
    const rate_limit::RateLimiter limiter{config::RateLimitSettings{}};
    rate_limit::Subject subject;
    subject.bucket = "key:2";
    subject.fixed_limit = 3;
    const auto decisions = within_one_window(redis, 60000, [&](int attempt) {
        subject.bucket = "key:2:" + std::to_string(attempt);
        std::vector<rate_limit::Decision> made;
        for (int i = 0; i < 4; ++i)
            made.push_back(limiter.check(redis, subject, [] { return 0LL; }));
        return made;
    });
    for (int i = 0; i < 3; ++i) CHECK(decisions[i].allowed);
    const auto& d = decisions[3];
    CHECK_FALSE(d.allowed);
    CHECK_FALSE(d.refused_by_second_ceiling);
    CHECK(d.retry_after_seconds >= 1);
    CHECK(d.retry_after_seconds <= 60);
}

TEST_CASE("a check made on condition counts nothing once the condition's counter has moved") {
    auto redis = testing::isolated_redis("rl");
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
    auto redis = testing::isolated_redis("rl");
    const rate_limit::RateLimiter limiter{config::RateLimitSettings{}};
    rate_limit::Subject subject;
    subject.bucket = "key:9";
    subject.workspace_id = 9;
    subject.fixed_limit = 100;
    const auto none = [] { return 0LL; };
    const rate_limit::Precondition epoch{redis.key("epoch"), 0};
    struct Steps {
        std::optional<rate_limit::Decision> lease, rest, beyond, after_refund;
    };
    const auto steps = within_one_window(redis, 60000, [&](int attempt) {
        subject.bucket = "key:9:" + std::to_string(attempt);
        Steps made;
        made.lease = limiter.check_if(redis, subject, epoch, none, {30, 0, 0});
        made.rest = limiter.check_if(redis, subject, epoch, none, {90, 0, 0});
        made.beyond = limiter.check_if(redis, subject, epoch, none);
        made.after_refund = limiter.check_if(redis, subject, epoch, none,
                                             {1, 10, made.lease ? made.lease->reset_ms : 0});
        return made;
    });
    const auto& lease = steps.lease;
    REQUIRE(lease);
    CHECK(lease->allowed);
    CHECK(lease->granted == 30);
    CHECK(lease->remaining == 70);
    // More than is left: the rest of the minute, no more.
    CHECK(steps.rest->granted == 70);
    CHECK(steps.rest->remaining == 0);
    CHECK_FALSE(steps.beyond->allowed);
    // Ten tokens of the first lease went unspent: handed back, they pay for this check.
    CHECK(steps.after_refund->allowed);
    CHECK(steps.after_refund->remaining == 9);
}
