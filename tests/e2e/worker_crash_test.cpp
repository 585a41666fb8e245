// At-least-once delivery with effectively-once effects: a worker killed with SIGKILL in the middle
// of a batch loses nothing and duplicates nothing once a worker runs again.
#include "tests/support/api_checks.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <signal.h>

#include <set>

using namespace squawk::testing;
using namespace std::chrono_literals;

TEST_CASE("every job completes exactly once after the worker is killed with SIGKILL mid-run",
          "[e2e][crash]") {
    StackOptions options;
    // Few fibers so that the kill lands while most jobs are still waiting or running.
    options.worker_arguments = {"--pools", "generate", "--threads", "1", "--fibers", "2"};
    Stack stack(options);
    const auto& key = stack.tenant().test_key;
    const std::string text =
        "The quick brown fox jumps over the lazy dog, again and again, so that the speech "
        "synthesiser has a little more to say and the job takes a moment to finish.";
    constexpr int kJobs = 24;
    std::vector<std::string> ids;
    for (int i = 0; i < kJobs; ++i) ids.push_back(submit_speech(stack, key, text));

    const auto completed = [&] {
        return stack.count("SELECT COUNT(*) FROM jobs WHERE status = 'completed'");
    };
    REQUIRE(Stack::wait_until([&] { return completed() >= 1; }, 30s, 10ms));
    stack.kill(Process::worker, SIGKILL);
    const long long done_at_kill = completed();
    INFO("completed when the worker was killed: " << done_at_kill);
    REQUIRE(done_at_kill < kJobs);

    stack.start(Process::worker);
    const bool all_done = Stack::wait_until([&] { return completed() == kJobs; }, 60s, 100ms);
    if (!all_done) FAIL(stack.post_mortem());

    std::set<std::string> media_ids;
    for (const auto& id : ids) {
        const auto r = stack.request("GET", "/v1/jobs/" + id, nullptr, key);
        check_success_envelope(r, 200);
        CHECK(r.json["data"].value("status", "") == "completed");
        const std::string media_id = r.json["data"]["result"].value("media_id", "");
        CHECK(stack.request("GET", "/v1/media/" + media_id, nullptr, key).status == 200);
        media_ids.insert(media_id);
    }
    CHECK(media_ids.size() == static_cast<size_t>(kJobs));
    CHECK(stack.count("SELECT COUNT(*) FROM media") == kJobs);
    CHECK(stack.count("SELECT COUNT(DISTINCT source_job_id) FROM media") == kJobs);
    CHECK(stack.count("SELECT COUNT(*) FROM jobs WHERE status <> 'completed'") == 0);
}
