// Redis is transport, never the only copy: accepted jobs survive a FLUSHALL.
#include "tests/support/api_checks.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;
using namespace std::chrono_literals;

TEST_CASE("jobs accepted before Redis lost all its data complete once a worker starts",
          "[e2e][alone]") {
    Stack stack(without_worker());
    const auto& key = stack.tenant().test_key;
    constexpr int kJobs = 10;
    std::vector<std::string> ids;
    for (int i = 0; i < kJobs; ++i)
        ids.push_back(submit_speech(stack, key, "Survive the flush, number " + std::to_string(i)));

    stack.flush_redis();
    stack.start(Process::worker);

    const bool all_done = Stack::wait_until(
        [&] {
            return stack.count("SELECT COUNT(*) FROM jobs WHERE status = 'completed'") == kJobs;
        },
        60s, 100ms);
    if (!all_done) FAIL(stack.post_mortem());
    for (const auto& id : ids) {
        const auto job = wait_for_terminal_job(stack, key, id, 5s);
        REQUIRE(job);
        CHECK(job->value("status", "") == "completed");
    }
    CHECK(stack.count("SELECT COUNT(*) FROM media") == kJobs);
}
