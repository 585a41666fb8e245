// Endpoint states end to end: 10 consecutive failures make an endpoint failing and hold (never
// drop) its deliveries until it is re-enabled; pause and resume; bulk replay of dead letters.
#include "common/domain/events/event_outbox.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/fake_receiver.hpp"
#include "tests/support/wait.hpp"
#include "tests/support/webhook_checks.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace squawk;
using namespace squawk::testing;
using namespace std::chrono_literals;

namespace {

HttpResponse set_status(Stack& stack, const std::string& key, const nlohmann::json& hook,
                        const std::string& status) {
    return stack.request("PUT", "/v1/webhooks/" + hook["id"].get<std::string>(),
                         {{"status", status}}, key);
}

std::set<std::string> received_event_ids(FakeReceiver& receiver, const std::string& path,
                                         long status = 200) {
    std::set<std::string> ids;
    for (const auto& r : receiver.requests(path))
        if (r["status_sent"] == status)
            ids.insert(r["headers"]["x-service-event-id"].get<std::string>());
    return ids;
}

}  // namespace

TEST_CASE(
    "ten consecutive failures set the endpoint failing and hold its deliveries until it is "
    "re-enabled, then every event is delivered",
    "[e2e][webhooks]") {
    Stack stack(webhook_stack_options(0.002));
    FakeReceiver receiver;
    receiver.program("/down", nlohmann::json::array(), {{"status", 500}});
    const auto& key = stack.tenant().test_key;
    const auto hook = create_webhook(stack, key, receiver.url("/down"), {"message.received"});
    std::set<std::string> events;
    for (int i = 0; i < 10; ++i)
        events.insert(
            emit_event(stack, stack.tenant().workspace_id, "message.received", {{"n", i}}));

    const std::string id = hook["id"];
    const auto status = [&] {
        return stack.request("GET", "/v1/webhooks", nullptr, key).json["data"][0]["status"];
    };
    REQUIRE(Stack::wait_until([&] { return status() == "failing"; }, 20s));
    // Raised while failing: kept, held.
    events.insert(emit_event(stack, stack.tenant().workspace_id, "message.received", {{"n", 10}}));
    REQUIRE(Stack::wait_until(
        [&] {
            return stack.count("SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'held'") ==
                   11;
        },
        15s));
    const long long sent_while_failing = receiver.count();
    CHECK(holds_throughout([&] { return receiver.count() == sent_while_failing; }, 1s));

    receiver.program("/down", nlohmann::json::array(), {{"status", 200}});
    const auto resumed = set_status(stack, key, hook, "active");
    check_success_envelope(resumed, 200);
    CHECK(resumed.json["data"]["status"] == "active");
    CHECK(resumed.json["data"]["consecutive_failures"] == 0);
    REQUIRE(
        Stack::wait_until([&] { return received_event_ids(receiver, "/down") == events; }, 20s));
    // Recorded once the receiver's answer is back, a moment after the receiver saw the request.
    CHECK(Stack::wait_until(
        [&] {
            return stack.count(
                       "SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'delivered'") == 11;
        },
        5s));
}

TEST_CASE("a paused endpoint receives nothing until it is resumed", "[e2e][webhooks]") {
    Stack stack(webhook_stack_options());
    FakeReceiver receiver;
    const auto& key = stack.tenant().test_key;
    const auto hook = create_webhook(stack, key, receiver.url("/p"), {"task_created"});
    auto paused = set_status(stack, key, hook, "paused");
    check_success_envelope(paused, 200);
    CHECK(paused.json["data"]["status"] == "paused");
    // With its only endpoint paused, the workspace has no one to tell: nothing is recorded.
    const auto while_paused = stack.db().transaction([&](db::Session& s) {
        return events::emit(s, stack.tenant().workspace_id, "task_created", {});
    });
    CHECK_FALSE(while_paused.has_value());
    CHECK(holds_throughout([&] { return receiver.count() == 0; }, 300ms));

    check_success_envelope(set_status(stack, key, hook, "active"), 200);
    const auto after = emit_event(stack, stack.tenant().workspace_id, "task_created", {});
    REQUIRE(Stack::wait_until([&] { return receiver.count() == 1; }, 15s));
    CHECK(received_event_ids(receiver, "/p") == std::set<std::string>{after});
    CHECK(stack.count("SELECT COUNT(*) FROM webhook_deliveries") == 1);
}

TEST_CASE("every dead-lettered delivery of an endpoint since a time is replayed in one call",
          "[e2e][webhooks]") {
    auto options = webhook_stack_options(0.0005);
    // 15 failed attempts in all: keep the endpoint active so all three reach the dead letters.
    options.extra_config = webhook_config(120.0, 100);
    Stack stack(options);
    FakeReceiver receiver;
    receiver.program("/dl", nlohmann::json::array(), {{"status", 502}});
    const auto& key = stack.tenant().test_key;
    const auto hook = create_webhook(stack, key, receiver.url("/dl"), {"comment.received"});
    std::set<std::string> events;
    for (int i = 0; i < 3; ++i)
        events.insert(
            emit_event(stack, stack.tenant().workspace_id, "comment.received", {{"n", i}}));
    REQUIRE(Stack::wait_until(
        [&] {
            return stack.count(
                       "SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'dead_letter'") == 3;
        },
        30s));
    receiver.program("/dl", nlohmann::json::array(), {{"status", 200}});
    const auto r = stack.request(
        "POST", "/v1/webhooks/" + hook["id"].get<std::string>() + "/replay-dead-letters",
        {{"since", "2000-01-01T00:00:00Z"}}, key);
    check_success_envelope(r, 200);
    CHECK(r.json["data"]["replayed"] == 3);
    REQUIRE(Stack::wait_until([&] { return received_event_ids(receiver, "/dl") == events; }, 15s));
}
