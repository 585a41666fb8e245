// How long workers wait: failed jobs back off exponentially up to a cap, shrunk by time_scale; a
// thread whose MySQL or Redis calls fail pauses 50 ms, doubling to 2 s.
#include "workers/runtime/backoff.hpp"
#include "common/core/time/clock.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using namespace std::chrono;

TEST_CASE("a failed job waits base x 2^(attempt-1), capped, scaled by time_scale",
          "[unit][backoff]") {
    config::JobSettings settings;
    settings.backoff_base_seconds = 2;
    settings.backoff_max_seconds = 30;
    time::set_time_scale(1.0);
    CHECK(workers::backoff_delay(1, settings) == seconds(2));
    CHECK(workers::backoff_delay(2, settings) == seconds(4));
    CHECK(workers::backoff_delay(4, settings) == seconds(16));
    CHECK(workers::backoff_delay(5, settings) == seconds(30));
    CHECK(workers::backoff_delay(1000, settings) == seconds(30));
    time::set_time_scale(0.01);
    CHECK(workers::backoff_delay(2, settings) == milliseconds(40));
    time::set_time_scale(1.0);
}

TEST_CASE("a thread facing a database or Redis outage pauses 50 ms, doubling up to 2 s",
          "[unit][backoff]") {
    CHECK(workers::outage_pause(0) == milliseconds(50));
    CHECK(workers::outage_pause(1) == milliseconds(100));
    CHECK(workers::outage_pause(5) == milliseconds(1600));
    CHECK(workers::outage_pause(6) == milliseconds(2000));
    CHECK(workers::outage_pause(1000) == milliseconds(2000));
    CHECK(workers::outage_pause(-3) == milliseconds(50));
}
