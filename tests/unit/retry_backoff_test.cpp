// The one retry-with-backoff rule: the wait doubles with each failure in a row up to a cap, never
// overflows however long the failures go on, and jitter spreads it by at most ten percent.
#include "common/core/retry/backoff.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using namespace std::chrono;

TEST_CASE("the wait doubles with each failure in a row, from the base up to the cap",
          "[unit][backoff]") {
    const retry::Seconds base(2);
    CHECK(retry::doubling_backoff(base, 1, seconds(30)) == seconds(2));
    CHECK(retry::doubling_backoff(base, 2, seconds(30)) == seconds(4));
    CHECK(retry::doubling_backoff(base, 4, seconds(30)) == seconds(16));
    CHECK(retry::doubling_backoff(base, 5, seconds(30)) == seconds(30));
    CHECK(retry::doubling_backoff(base, 1000, seconds(30)) == seconds(30));
    CHECK(retry::doubling_backoff(milliseconds(50), 3) == milliseconds(200));
}

TEST_CASE("a count below one waits the base", "[unit][backoff]") {
    CHECK(retry::doubling_backoff(retry::Seconds(2), 0) == seconds(2));
    CHECK(retry::doubling_backoff(retry::Seconds(2), -5) == seconds(2));
}

TEST_CASE("an uncapped wait stops growing near a century instead of overflowing",
          "[unit][backoff]") {
    const auto longest = retry::doubling_backoff(retry::Seconds(86400), 1'000'000);
    CHECK(longest > hours(24 * 365 * 99));
    CHECK(longest <= hours(24 * 365 * 100));
}

TEST_CASE("jitter spreads a delay by at most ten percent either way", "[unit][backoff]") {
    CHECK(retry::with_jitter(seconds(10), 0.0) == seconds(9));
    CHECK(retry::with_jitter(seconds(10), 0.5) == seconds(10));
    CHECK(retry::with_jitter(seconds(10), 0.999999) <= seconds(11));
    CHECK(retry::with_jitter(seconds(10), 7.0) == seconds(11));
    for (int i = 0; i < 100; ++i) {
        const auto spread = retry::jittered(seconds(10));
        CHECK(spread >= seconds(9));
        CHECK(spread <= seconds(11));
    }
}
