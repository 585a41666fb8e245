// MariaDB going away is an outage the API reports cleanly and recovers from without a restart.
#include "tests/support/api_checks.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;
using namespace std::chrono_literals;

TEST_CASE("while MariaDB is down the API answers a clean 503 and recovers by itself",
          "[e2e][alone]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    check_success_envelope(stack.request("GET", "/v1/jobs", nullptr, key), 200);

    stack.stop_mysql();
    for (const auto& [method, path, body] :
         std::vector<std::tuple<std::string, std::string, nlohmann::json>>{
             {"GET", "/v1/jobs", nullptr},
             {"GET", "/v1/me", nullptr},
             {"POST", "/v1/audio/text-to-speech", {{"text", "Nobody will hear this."}}}}) {
        INFO(method << " " << path);
        const auto r = stack.request(method, path, body, key);
        check_error_envelope(r, 503, "SERVICE_UNAVAILABLE");
        // Driver and exception text stays in the logs.
        for (const char* leak : {"Can't connect", "Lost connection", "SQLException", "MySQL server",
                                 "MariaDB", "errno", "what()"})
            CHECK(r.body.find(leak) == std::string::npos);
    }
    stack.start_mysql();
    const bool recovered = Stack::wait_until(
        [&] { return stack.request("GET", "/v1/jobs", nullptr, key).status == 200; }, 30s, 200ms);
    if (!recovered) FAIL(stack.post_mortem());
    // Same process throughout: nothing restarted the API.
    CHECK(stack.running(Process::api));
    CHECK(stack.count("SELECT COUNT(*) FROM jobs") == 0);

    const std::string job_id = submit_speech(stack, key, "The database is back.");
    const auto job = wait_for_terminal_job(stack, key, job_id, 60s);
    REQUIRE(job);
    CHECK(job->value("status", "") == "completed");
}
