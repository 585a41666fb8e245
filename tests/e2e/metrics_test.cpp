// Prometheus metrics: the API counts requests by route template and status, the worker exports
// its queues, tasks in flight, task outcomes and webhook deliveries by outcome, the scheduler its
// leadership, all without a key.
#include "tests/support/api_checks.hpp"
#include "tests/support/fake_receiver.hpp"
#include "tests/support/stack.hpp"
#include "tests/support/webhook_checks.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;

namespace {

// The text of GET /metrics, or nothing while the process is not listening yet.
std::string scrape(Stack& stack, Process process) {
    HttpClient http(stack.metrics_url(process));
    try {
        const auto r = http.send("GET", "/metrics", std::nullopt, {});
        return r.status == 200 ? r.body : std::string();
    } catch (const std::exception&) {
        return {};
    }
}

bool has(const std::string& text, const std::string& line) {
    return text.find(line) != std::string::npos;
}

}  // namespace

TEST_CASE("the API counts requests by route template and status at /metrics", "[e2e][metrics]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    stack.request("GET", "/v1/jobs/job_missing", nullptr, key);
    stack.request("GET", "/v1/me", nullptr, key);
    // A request is counted once its answer is sent, so the client may see the answer first.
    std::string text;
    Stack::wait_until(
        [&] {
            text = scrape(stack, Process::api);
            return has(text, "route=\"/v1/me\"");
        },
        std::chrono::seconds(5));
    REQUIRE_FALSE(text.empty());
    CHECK(has(
        text,
        "squawk_http_requests_total{method=\"GET\",route=\"/v1/jobs/{job_id}\",status=\"404\"} 1"));
    CHECK(
        has(text, "squawk_http_requests_total{method=\"GET\",route=\"/v1/me\",status=\"200\"} 1"));
    CHECK(has(text, "# TYPE squawk_http_request_duration_seconds histogram"));
    CHECK(
        has(text, "squawk_http_request_duration_seconds_count{method=\"GET\",route=\"/v1/me\"} 1"));
}

TEST_CASE("the worker exports queue depth, tasks in flight and task outcomes", "[e2e][metrics]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    const auto accepted = stack.request("POST", "/v1/jobs/ping", nlohmann::json::object(), key);
    REQUIRE(wait_for_terminal_job(stack, key, accepted.json["data"].value("job_id", "")));
    std::string text;
    REQUIRE(Stack::wait_until(
        [&] {
            text = scrape(stack, Process::worker);
            // The entry is acknowledged just after the outcome is counted.
            return has(text,
                       "squawk_task_outcomes_total{pool=\"generate\",type=\"noop\",outcome="
                       "\"completed\"} 1") &&
                   has(text, "squawk_queue_finished_total{pool=\"generate\"} 1");
        },
        std::chrono::seconds(10)));
    CHECK(has(text, "squawk_queue_ready{pool=\"generate\"} 0"));
    CHECK(has(text, "# TYPE squawk_queue_added_total counter"));
    CHECK(has(text, "squawk_queue_added_total{pool=\"generate\"} 1"));
    CHECK(has(text, "squawk_queue_oldest_ready_age_seconds{pool=\"generate\"}"));
    CHECK(has(text, "squawk_tasks_in_flight{pool=\"generate\"} 0"));
    CHECK(has(text, "squawk_task_duration_seconds_count{pool=\"generate\",type=\"noop\"} 1"));
}

TEST_CASE("the worker counts webhook deliveries by outcome and exports their backlog from MySQL",
          "[e2e][metrics][webhooks]") {
    FakeReceiver receiver;
    Stack stack(webhook_stack_options());  // the retry follows the refusal within a second
    const auto& key = stack.tenant().test_key;
    receiver.program("/m", nlohmann::json::array({{{"status", 503}}}));
    create_webhook(stack, key, receiver.url("/m"), {"post.published"});
    const auto event = emit_event(stack, stack.tenant().workspace_id, "post.published", {});
    REQUIRE(Stack::wait_until([&] { return deliveries_in(stack, event, "delivered") == 1; },
                              std::chrono::seconds(15)));
    std::string text;
    REQUIRE(Stack::wait_until(
        [&] {
            text = scrape(stack, Process::worker);
            return has(text, "squawk_webhook_deliveries_total{outcome=\"delivered\"} 1");
        },
        std::chrono::seconds(10)));
    CHECK(has(text, "squawk_webhook_deliveries_total{outcome=\"retrying\"} 1"));
    CHECK(has(text, "squawk_webhook_attempt_duration_seconds_count 2"));
    CHECK(has(text, "squawk_tasks_in_flight{pool=\"webhooks\"} 0"));
    CHECK(has(text, "squawk_queue_ready{pool=\"webhooks\"} 0"));
    CHECK(has(text, "squawk_webhook_deliveries_held 0"));
}

TEST_CASE("the scheduler reports that it leads and the queues of every pool", "[e2e][metrics]") {
    Stack stack;
    std::string text;
    REQUIRE(Stack::wait_until(
        [&] {
            text = scrape(stack, Process::scheduler);
            return has(text, "squawk_scheduler_leader 1");
        },
        std::chrono::seconds(10)));
    CHECK(has(text, "squawk_queue_delayed{pool=\"webhooks\"} 0"));
    HttpClient http(stack.metrics_url(Process::scheduler));
    CHECK(http.send("GET", "/other", std::nullopt, {}).status == 404);
}
