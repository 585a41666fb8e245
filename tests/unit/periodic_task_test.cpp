// PeriodicTask: runs at once and then every interval, runs early when woken, backs off after
// failures without giving up, and flushes once more on stop.
#include "common/core/runtime/periodic_task.hpp"
#include "tests/support/wait.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <stdexcept>

using namespace squawk;
using namespace std::chrono_literals;
using runtime::PeriodicTask;

TEST_CASE("a periodic task runs at once and then every interval until stopped") {
    std::atomic<int> runs{0};
    PeriodicTask task({.name = "counting", .interval = 10ms}, [&] { ++runs; });
    task.start();
    CHECK(testing::wait_until([&] { return runs >= 3; }, 5s, 1ms));
    task.stop();
    const int after_stop = runs;
    CHECK(testing::holds_throughout([&] { return runs == after_stop; }, 50ms));
    CHECK(task.runs() == after_stop);
}

TEST_CASE("a woken periodic task runs without waiting out its interval") {
    std::atomic<int> runs{0};
    PeriodicTask task({.name = "woken", .interval = std::chrono::hours(1)}, [&] { ++runs; });
    task.start();
    REQUIRE(testing::wait_until([&] { return runs == 1; }, 5s, 1ms));
    task.wake();
    CHECK(testing::wait_until([&] { return runs == 2; }, 5s, 1ms));
}

TEST_CASE("a failing periodic task keeps running and counts its failures") {
    std::atomic<int> calls{0};
    PeriodicTask task({.name = "flaky", .interval = 1ms, .max_backoff = 2ms}, [&] {
        if (++calls <= 3) throw std::runtime_error("not yet");
    });
    task.start();
    CHECK(testing::wait_until([&] { return task.runs() >= 1; }, 5s, 1ms));
    CHECK(task.failures() == 3);
}

TEST_CASE("a task that flushes on stop runs once more, retrying within its flush budget") {
    std::atomic<int> calls{0};
    std::atomic<bool> stopping{false};
    PeriodicTask task({.name = "flushing",
                       .interval = std::chrono::hours(1),
                       .max_backoff = 1ms,
                       .first_retry = 1ms,
                       .flush_on_stop = true},
                      [&] {
                          ++calls;
                          if (stopping && calls < 4) throw std::runtime_error("database away");
                      });
    task.start();
    REQUIRE(testing::wait_until([&] { return calls == 1; }, 5s, 1ms));
    stopping = true;
    CHECK(task.stop(5s));
    CHECK(calls == 4);
}

TEST_CASE("a flush that keeps failing gives up when its budget is spent") {
    PeriodicTask task(
        {.name = "hopeless", .interval = std::chrono::hours(1), .flush_on_stop = true},
        [] { throw std::runtime_error("database away"); });
    task.start();
    CHECK_FALSE(task.stop(0ms));
}
