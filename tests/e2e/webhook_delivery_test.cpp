// Webhook delivery end to end: signed at-least-once delivery, the retry schedule, dead letters and
// replay, Retry-After, fan-out to profiles' parents, job events and the synchronous test call.
#include "common/core/time/clock.hpp"
#include "common/domain/webhooks/signature.hpp"
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

long long now_seconds() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

bool signed_with(const nlohmann::json& request, const std::string& secret) {
    return webhooks::verify_signature(request["headers"].value("x-service-signature", ""), secret,
                                      request["body"].get<std::string>(), now_seconds(), 300);
}

}  // namespace

TEST_CASE(
    "a delivery failing every attempt is retried on the doubling schedule, dead-lettered "
    "after the 5th, and a replay delivers the same event freshly signed",
    "[e2e][webhooks]") {
    Stack stack(webhook_stack_options(0.002));
    FakeReceiver receiver;
    receiver.program("/fail", nlohmann::json::array({{{"status", 500}},
                                                     {{"status", 503}},
                                                     {{"status", 500}},
                                                     {{"status", 500}},
                                                     {{"status", 500}}}));
    const auto& key = stack.tenant().test_key;
    const auto hook = create_webhook(stack, key, receiver.url("/fail"), {"post.published"});
    const std::string secret = hook["secret"];
    const auto event =
        emit_event(stack, stack.tenant().workspace_id, "post.published", {{"post_id", "p1"}});

    REQUIRE(
        Stack::wait_until([&] { return deliveries_in(stack, event, "dead_letter") == 1; }, 30s));
    auto requests = receiver.requests("/fail");
    REQUIRE(requests.size() == 5);
    // 2, 4, 8, 16 minutes scaled by 0.002: each wait at least the scheduled one.
    const long long expected_ms[] = {240, 480, 960, 1920};
    for (size_t i = 1; i < requests.size(); ++i) {
        const long long gap = requests[i]["received_at_ms"].get<long long>() -
                              requests[i - 1]["received_at_ms"].get<long long>();
        INFO("gap before attempt " << i + 1 << ": " << gap << " ms");
        CHECK(gap >= expected_ms[i - 1] * 9 / 10);
    }
    const auto log = delivery_log(stack, key, event, hook["id"]);
    REQUIRE(log.is_object());
    CHECK(log["status"] == "dead_letter");
    CHECK(log["attempts"].size() == 5);
    CHECK(log["attempts"][0]["status_code"] == 500);
    CHECK(log["attempts"][1]["status_code"] == 503);

    const auto replay =
        stack.request("POST",
                      "/v1/webhooks/deliveries/" +
                          std::to_string(log["delivery_id"].get<long long>()) + "/replay",
                      nullptr, key);
    check_success_envelope(replay, 200);
    CHECK(replay.json["data"]["delivery_id"] == log["delivery_id"]);
    CHECK(replay.json["data"]["status"] == "pending");
    REQUIRE(Stack::wait_until([&] { return deliveries_in(stack, event, "delivered") == 1; }, 15s));

    requests = receiver.requests("/fail");
    REQUIRE(requests.size() == 6);
    std::set<std::string> timestamps;
    for (const auto& r : requests) {
        CHECK(r["headers"]["x-service-event-id"] == event);
        CHECK(r["body"] == requests[0]["body"]);
        CHECK(signed_with(r, secret));
        timestamps.insert(r["headers"]["x-service-signature"].get<std::string>());
    }
    const auto body = nlohmann::json::parse(requests[5]["body"].get<std::string>());
    CHECK(body["id"] == event);
    CHECK(body["event"] == "post.published");
    CHECK(body["data"]["post_id"] == "p1");
    CHECK(body.contains("created_at"));
    const auto after = delivery_log(stack, key, event, hook["id"]);
    CHECK(after["attempt_count"] == 1);
    CHECK(after["status"] == "delivered");
}

TEST_CASE("a 429 with Retry-After is honoured instead of the standard backoff", "[e2e][webhooks]") {
    Stack stack(webhook_stack_options(0.002));
    FakeReceiver receiver;
    receiver.program("/busy", nlohmann::json::array({{{"status", 429}, {"retry_after", "2"}}}));
    const auto& key = stack.tenant().test_key;
    create_webhook(stack, key, receiver.url("/busy"), {"review.new"});
    const auto event =
        emit_event(stack, stack.tenant().workspace_id, "review.new", {{"review_id", "r"}});
    REQUIRE(Stack::wait_until([&] { return deliveries_in(stack, event, "delivered") == 1; }, 20s));
    const auto requests = receiver.requests("/busy");
    REQUIRE(requests.size() == 2);
    const long long gap = requests[1]["received_at_ms"].get<long long>() -
                          requests[0]["received_at_ms"].get<long long>();
    INFO("gap " << gap << " ms; the standard backoff would be 240 ms");
    CHECK(gap >= 1900);
}

TEST_CASE(
    "an event reaches every subscribed endpoint under one id with a verifiable signature, "
    "and no endpoint that did not subscribe",
    "[e2e][webhooks]") {
    Stack stack(webhook_stack_options());
    FakeReceiver receiver;
    const auto& key = stack.tenant().test_key;
    const auto a =
        create_webhook(stack, key, receiver.url("/a"), {"contact.created", "review.new"});
    const auto b = create_webhook(stack, key, receiver.url("/b"), {"contact.created"});
    create_webhook(stack, key, receiver.url("/c"), {"review.new"});
    const auto event =
        emit_event(stack, stack.tenant().workspace_id, "contact.created", {{"contact_id", "c1"}});
    REQUIRE(Stack::wait_until([&] { return deliveries_in(stack, event, "delivered") == 2; }, 15s));
    const auto at_a = receiver.requests("/a");
    const auto at_b = receiver.requests("/b");
    REQUIRE(at_a.size() == 1);
    REQUIRE(at_b.size() == 1);
    CHECK(receiver.requests("/c").empty());
    CHECK(at_a[0]["headers"]["x-service-event-id"] == event);
    CHECK(at_b[0]["headers"]["x-service-event-id"] == event);
    CHECK(signed_with(at_a[0], a["secret"]));
    CHECK(signed_with(at_b[0], b["secret"]));
    CHECK_FALSE(signed_with(at_a[0], b["secret"]));
    CHECK(at_a[0]["headers"]["content-type"] == "application/json");
}

TEST_CASE(
    "an event raised inside a profile workspace also reaches the parent's webhooks with "
    "profile_id and profile_workspace_id",
    "[e2e][webhooks]") {
    Stack stack(webhook_stack_options());
    FakeReceiver receiver;
    const auto& key = stack.tenant().test_key;
    create_webhook(stack, key, receiver.url("/parent"), {"post.failed"});
    const auto created = create_profile(stack, stack.tenant().workspace_id);
    const long long profile = created.workspace_id;
    const auto child_key = stack.create_key(profile, "test", "all");
    create_webhook(stack, child_key, receiver.url("/child"), {"post.failed"});
    const auto event = emit_event(stack, profile, "post.failed", {{"post_id", "p9"}});

    REQUIRE(Stack::wait_until([&] { return deliveries_in(stack, event, "delivered") == 2; }, 15s));
    const auto parent =
        nlohmann::json::parse(receiver.requests("/parent").at(0)["body"].get<std::string>());
    const auto child =
        nlohmann::json::parse(receiver.requests("/child").at(0)["body"].get<std::string>());
    CHECK(parent["id"] == event);
    CHECK(child["id"] == event);
    CHECK(parent["data"]["post_id"] == "p9");
    CHECK(parent["data"]["profile_workspace_id"] == profile);
    CHECK(parent["data"]["profile_id"] == created.id);
    CHECK_FALSE(child["data"].contains("profile_id"));
    // The parent's events do not flow down to the profile.
    const auto own =
        emit_event(stack, stack.tenant().workspace_id, "post.failed", {{"post_id", "p"}});
    REQUIRE(Stack::wait_until([&] { return deliveries_in(stack, own, "delivered") == 1; }, 15s));
    CHECK(receiver.requests("/child").size() == 1);
}

TEST_CASE("a finished speech job raises job.completed to subscribed webhooks", "[e2e][webhooks]") {
    Stack stack(webhook_stack_options(0.05, "generate"));
    FakeReceiver receiver;
    const auto& key = stack.tenant().test_key;
    create_webhook(stack, key, receiver.url("/jobs"), {"job.completed", "job.failed"});
    const auto job_id = submit_speech(stack, key, "Hello from the webhook test.");
    REQUIRE(wait_for_terminal_job(stack, key, job_id));
    REQUIRE(Stack::wait_until([&] { return receiver.requests("/jobs").size() == 1; }, 15s));
    const auto body =
        nlohmann::json::parse(receiver.requests("/jobs").at(0)["body"].get<std::string>());
    CHECK(body["event"] == "job.completed");
    CHECK(body["data"]["job_id"] == job_id);
    CHECK(body["data"]["status"] == "completed");
    CHECK(body["data"]["type"] == "audio.text_to_speech");
    CHECK(body["data"]["result"].contains("media_id"));
}

TEST_CASE("the test call answers the outcome synchronously and a failed test is never retried",
          "[e2e][webhooks]") {
    Stack stack(webhook_stack_options(0.002));
    FakeReceiver receiver;
    receiver.program("/t", nlohmann::json::array({{{"status", 500}, {"body", "broken"}}}));
    const auto& key = stack.tenant().test_key;
    const auto hook = create_webhook(stack, key, receiver.url("/t"), {"webhook.test"});
    const std::string path = "/v1/webhooks/" + hook["id"].get<std::string>() + "/test";

    auto r = stack.request("POST", path, nullptr, key);
    check_success_envelope(r, 200);
    CHECK(r.json["data"]["success"] == false);
    CHECK(r.json["data"]["status_code"] == 500);
    CHECK(r.json["data"]["response_excerpt"] == "broken");
    CHECK(r.json["data"]["duration_ms"].is_number());
    const std::string failed_event = r.json["data"]["event_id"];

    r = stack.request("POST", path, nullptr, key);
    CHECK(r.json["data"]["success"] == true);
    CHECK(r.json["data"]["status_code"] == 200);
    // Room for a retry that must not happen.
    CHECK(holds_throughout([&] { return receiver.requests("/t").size() == 2; }, 1s));
    CHECK(deliveries_in(stack, failed_event, "failed") == 1);
    const auto body =
        nlohmann::json::parse(receiver.requests("/t").at(0)["body"].get<std::string>());
    CHECK(body["event"] == "webhook.test");
    CHECK(signed_with(receiver.requests("/t").at(0), hook["secret"]));
}

TEST_CASE("after a secret rotation deliveries carry a signature for the new and the old secret",
          "[e2e][webhooks]") {
    Stack stack(webhook_stack_options());
    FakeReceiver receiver;
    const auto& key = stack.tenant().test_key;
    const auto hook = create_webhook(stack, key, receiver.url("/rot"), {"review.updated"});
    const auto rotated = stack.request(
        "POST", "/v1/webhooks/" + hook["id"].get<std::string>() + "/rotate-secret", nullptr, key);
    check_success_envelope(rotated, 200);
    const std::string fresh = rotated.json["data"]["secret"];
    CHECK(fresh != hook["secret"]);
    CHECK(rotated.json["data"].contains("previous_secret_expires_at"));
    const auto event =
        emit_event(stack, stack.tenant().workspace_id, "review.updated", nlohmann::json::object());
    REQUIRE(Stack::wait_until([&] { return receiver.requests("/rot").size() == 1; }, 15s));
    const auto request = receiver.requests("/rot").at(0);
    const std::string header = request["headers"]["x-service-signature"];
    CHECK(std::count(header.begin(), header.end(), 'v') == 2);
    CHECK(signed_with(request, fresh));
    CHECK(signed_with(request, hook["secret"]));
    CHECK(request["headers"]["x-service-event-id"] == event);
}
