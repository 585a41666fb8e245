// At-least-once delivery across a crash: the delivery worker killed with SIGKILL mid-flight loses
// no event; after a restart every event reaches the receiver under its one id.
#include "tests/support/fake_receiver.hpp"
#include "tests/support/webhook_checks.hpp"

#include <catch2/catch.hpp>

#include <signal.h>

#include <set>

using namespace squawk::testing;
using namespace std::chrono_literals;

TEST_CASE(
    "every event is delivered at least once under its id after the delivery worker is "
    "killed with SIGKILL mid-flight",
    "[e2e][webhooks][crash]") {
    auto options = webhook_stack_options(0.002);
    options.worker_arguments = {"--pools", "webhooks", "--threads", "1", "--fibers", "8"};
    options.extra_config = webhook_config(120.0, 1000, 2);
    Stack stack(options);
    FakeReceiver receiver;
    // Slow answers keep deliveries in flight when the kill lands.
    receiver.program("/slow", nlohmann::json::array(), {{"status", 200}, {"delay_ms", 150}});
    const auto& key = stack.tenant().test_key;
    create_webhook(stack, key, receiver.url("/slow"), {"post.scheduled"});
    std::set<std::string> events;
    for (int i = 0; i < 60; ++i)
        events.insert(emit_event(stack, stack.tenant().workspace_id, "post.scheduled", {{"n", i}}));

    REQUIRE(Stack::wait_until([&] { return receiver.count() >= 10; }, 20s, 5ms));
    stack.kill(Process::worker, SIGKILL);
    const long long delivered_at_kill =
        stack.count("SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'delivered'");
    INFO("delivered when the worker was killed: " << delivered_at_kill);
    REQUIRE(delivered_at_kill < 60);
    CHECK(stack.count("SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'delivering'") > 0);

    stack.start(Process::worker);
    const bool all = Stack::wait_until(
        [&] {
            return stack.count(
                       "SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'delivered'") == 60;
        },
        60s, 100ms);
    if (!all) FAIL(stack.post_mortem());
    std::set<std::string> received;
    for (const auto& r : receiver.requests("/slow"))
        received.insert(r["headers"]["x-service-event-id"].get<std::string>());
    CHECK(received == events);
    CHECK(stack.count("SELECT COUNT(*) FROM webhook_deliveries") == 60);
}
