// POST /jobs/ping: a no-op job that proves the whole job path works, from the API through the queue
// and a worker to MySQL, and that holds a fiber for sleep_ms when asked.
#include "common/core/time/clock.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;

TEST_CASE("a ping job is accepted with 202 and completes with when a worker ran it",
          "[e2e][jobs]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    const auto accepted = stack.request("POST", "/v1/jobs/ping", nlohmann::json::object(), key);
    check_success_envelope(accepted, 202);
    CHECK(accepted.json["data"].value("type", "") == "noop");
    const std::string job_id = accepted.json["data"].value("job_id", "");

    const auto job = wait_for_terminal_job(stack, key, job_id);
    REQUIRE(job);
    CHECK(job->value("status", "") == "completed");
    CHECK(job->value("attempts", 0) == 1);
    REQUIRE((*job)["result"].size() == 1);
    const auto ran_at = squawk::time::parse_iso8601((*job)["result"].value("ran_at", ""));
    REQUIRE(ran_at);
    CHECK(*ran_at >= *squawk::time::parse_iso8601(job->value("started_at", "")));
    CHECK(*ran_at <= *squawk::time::parse_iso8601(job->value("finished_at", "")));
}

TEST_CASE("a ping job with sleep_ms stays running until its time is up", "[e2e][jobs]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    const auto accepted = stack.request("POST", "/v1/jobs/ping", {{"sleep_ms", 1500}}, key);
    check_success_envelope(accepted, 202);
    const std::string job_id = accepted.json["data"].value("job_id", "");
    REQUIRE(Stack::wait_until(
        [&] {
            return stack.request("GET", "/v1/jobs/" + job_id, nullptr, key)
                       .json["data"]
                       .value("status", "") == "running";
        },
        std::chrono::seconds(10)));
    const auto job = wait_for_terminal_job(stack, key, job_id);
    REQUIRE(job);
    CHECK(job->value("status", "") == "completed");
}

TEST_CASE("a ping job refuses an out-of-range sleep_ms and unknown fields", "[e2e][jobs]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    const auto too_long = stack.request("POST", "/v1/jobs/ping", {{"sleep_ms", 60001}}, key);
    check_error_envelope(too_long, 422, "VALIDATION_ERROR");
    CHECK(too_long.json["error"]["details"]["fields"].contains("sleep_ms"));
    const auto unknown = stack.request("POST", "/v1/jobs/ping", {{"colour", "red"}}, key);
    check_error_envelope(unknown, 422, "VALIDATION_ERROR");
    CHECK(unknown.json["error"]["details"]["fields"].contains("colour"));
    CHECK(stack.count("SELECT COUNT(*) FROM jobs") == 0);
}
