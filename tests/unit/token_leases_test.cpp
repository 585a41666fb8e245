// Token leases: a busy bucket spends a batch granted in one Redis check; a quiet or small one
// asks for a token per request, and what a lapsed lease left is handed back.
#include "common/core/rate_limit/token_leases.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace squawk::rate_limit;
using namespace std::chrono_literals;

namespace {

Decision grant(long long limit, long long remaining, long long granted) {
    Decision d;
    d.limit = limit;
    d.remaining = remaining;
    d.reset_ms = 60000;
    d.granted = granted;
    return d;
}

// `n` requests of a bucket inside one lease lifetime, each missing the lease.
void seen(TokenLeases& leases, int n, TokenLeases::Clock::time_point at) {
    for (int i = 0; i < n; ++i) leases.spend("b", 1, at);
}

}  // namespace

TEST_CASE("a quiet bucket asks for one token per request", "[unit][rate_limit]") {
    TokenLeases leases(100ms);
    const auto t = TokenLeases::Clock::now();
    CHECK_FALSE(leases.spend("b", 1, t));
    CHECK(leases.ask("b", t).take == 1);
}

TEST_CASE("a busy bucket asks for its recent demand and spends it without asking again",
          "[unit][rate_limit]") {
    TokenLeases leases(100ms);
    const auto t = TokenLeases::Clock::now();
    leases.keep("b", 1, grant(1000000, 900000, 1), t);
    seen(leases, 40, t);
    const auto later = t + 120ms;
    seen(leases, 1, later);
    const auto ask = leases.ask("b", later);
    CHECK(ask.take == 40);
    leases.keep("b", 1, grant(1000000, 899960, ask.take), later);
    for (int i = 0; i < 39; ++i) {
        const auto paid = leases.spend("b", 1, later + 1ms);
        REQUIRE(paid);
        CHECK(paid->allowed);
        CHECK(paid->remaining == 899960 + 38 - i);
    }
    CHECK_FALSE(leases.spend("b", 1, later + 1ms));
}

TEST_CASE("a lease is a hundredth of the limit at most, so small limits stay exact",
          "[unit][rate_limit]") {
    TokenLeases leases(100ms);
    const auto t = TokenLeases::Clock::now();
    leases.keep("b", 1, grant(600, 500, 1), t);
    seen(leases, 50, t);
    seen(leases, 1, t + 120ms);
    CHECK(leases.ask("b", t + 120ms).take == 6);
    leases.keep("b", 1, grant(60, 50, 1), t + 120ms);
    CHECK(leases.ask("b", t + 120ms).take == 1);
}

TEST_CASE("a lease is not spent after its lifetime or under another identity epoch",
          "[unit][rate_limit]") {
    TokenLeases leases(100ms);
    const auto t = TokenLeases::Clock::now();
    leases.keep("b", 1, grant(1000000, 1000, 10), t);
    CHECK_FALSE(leases.spend("b", 2, t + 1ms));
    CHECK(leases.spend("b", 1, t + 1ms));
    CHECK_FALSE(leases.spend("b", 1, t + 100ms));
}

TEST_CASE("what a lapsed lease left is handed back with the next check", "[unit][rate_limit]") {
    TokenLeases leases(100ms);
    const auto t = TokenLeases::Clock::now();
    leases.keep("b", 1, grant(1000000, 1000, 10), t);
    leases.spend("b", 1, t + 1ms);
    const auto ask = leases.ask("b", t + 150ms);
    CHECK(ask.refund == 8);
    CHECK(ask.refund_reset_ms == 60000);
    CHECK(leases.ask("b", t + 150ms).refund == 0);
}

TEST_CASE("a zero lifetime turns leases off", "[unit][rate_limit]") {
    TokenLeases leases(0ms);
    const auto t = TokenLeases::Clock::now();
    leases.keep("b", 1, grant(1000000, 1000, 10), t);
    CHECK_FALSE(leases.spend("b", 1, t));
    CHECK(leases.ask("b", t).take == 1);
}

TEST_CASE("a million distinct buckets never hold more than the bound, quiet or busy",
          "[unit][rate_limit]") {
    TokenLeases leases(100ms);
    const auto start = TokenLeases::Clock::now();
    // Quiet: a million workspaces each calling once over ten seconds; the idle ones are forgotten.
    size_t most = 0;
    for (int i = 0; i < 1000000; ++i) {
        const auto at = start + std::chrono::microseconds(10 * i);
        leases.spend("quiet" + std::to_string(i), 1, at);
        most = std::max(most, leases.size());
    }
    CHECK(most == TokenLeases::kMaxBuckets);
    // Busy: as many within one lease lifetime, none idle; the map starts over instead.
    const auto later = start + 20s;
    most = 0;
    for (int i = 0; i < 1000000; ++i) {
        leases.keep("busy" + std::to_string(i), 1, grant(1000000, 900000, 5), later);
        most = std::max(most, leases.size());
    }
    CHECK(most == TokenLeases::kMaxBuckets);
}

TEST_CASE("a bucket still holding a live lease is kept when idle ones make room",
          "[unit][rate_limit]") {
    TokenLeases leases(100ms);
    const auto t = TokenLeases::Clock::now();
    leases.keep("held", 1, grant(1000000, 900000, 10), t);
    for (size_t i = 0; i + 1 < TokenLeases::kMaxBuckets; ++i)
        leases.spend("old" + std::to_string(i), 1, t - 1s);
    REQUIRE(leases.size() == TokenLeases::kMaxBuckets);
    leases.spend("new", 1, t);
    CHECK(leases.size() == 2);
    CHECK(leases.spend("held", 1, t));
}
