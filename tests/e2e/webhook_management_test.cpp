// Webhook management through the API: create with a one-time secret, validation of events and
// URLs, the active limit, scopes, tenancy, update, delete, and the delivery log's filters.
#include "tests/support/api_checks.hpp"
#include "tests/support/fake_receiver.hpp"
#include "tests/support/webhook_checks.hpp"

#include <catch2/catch.hpp>

#include <tuple>

using namespace squawk::testing;
using namespace std::chrono_literals;

TEST_CASE("creating a webhook returns its secret once and listing never shows it",
          "[e2e][webhooks]") {
    Stack stack(webhook_stack_options());
    const auto& key = stack.tenant().test_key;
    const auto hook = create_webhook(stack, key, "http://127.0.0.1:9/hook", {"post.published"});
    CHECK(hook["secret"].get<std::string>().rfind("whsec_", 0) == 0);
    CHECK(hook["status"] == "active");
    CHECK(hook["events"] == nlohmann::json::array({"post.published"}));
    const auto list = stack.request("GET", "/v1/webhooks", nullptr, key);
    check_success_envelope(list, 200);
    REQUIRE(list.json["data"].size() == 1);
    CHECK(list.json["data"][0]["id"] == hook["id"]);
    CHECK_FALSE(list.json["data"][0].contains("secret"));
    CHECK(list.body.find(hook["secret"].get<std::string>()) == std::string::npos);
    // At rest the secret is encrypted.
    CHECK(stack.count("SELECT COUNT(*) FROM webhook_endpoints WHERE secret_enc LIKE ?",
                      {"%" + hook["secret"].get<std::string>() + "%"}) == 0);
}

TEST_CASE("unknown event names are refused with 422 naming them", "[e2e][webhooks]") {
    Stack stack(webhook_stack_options());
    const auto r = stack.request(
        "POST", "/v1/webhooks",
        {{"url", "http://127.0.0.1:9/h"}, {"events", {"post.published", "post.exploded", "nope"}}},
        stack.tenant().test_key);
    check_error_envelope(r, 422, "VALIDATION_ERROR");
    const std::string reason = r.json["error"]["details"]["fields"]["events"];
    CHECK(reason.find("post.exploded") != std::string::npos);
    CHECK(reason.find("nope") != std::string::npos);
    CHECK(stack.count("SELECT COUNT(*) FROM webhook_endpoints") == 0);

    for (const auto& body :
         {nlohmann::json{{"url", "http://127.0.0.1:9/h"}},
          nlohmann::json{{"url", "http://127.0.0.1:9/h"}, {"events", nlohmann::json::array()}},
          nlohmann::json{{"events", {"review.new"}}},
          nlohmann::json{{"url", 5}, {"events", {"review.new"}}, {"extra", 1}}}) {
        const auto bad = stack.request("POST", "/v1/webhooks", body, stack.tenant().test_key);
        check_error_envelope(bad, 422, "VALIDATION_ERROR");
    }
}

TEST_CASE("a workspace has at most 10 active webhooks and pausing one makes room",
          "[e2e][webhooks]") {
    Stack stack(webhook_stack_options());
    const auto& key = stack.tenant().test_key;
    nlohmann::json first;
    for (int i = 0; i < 10; ++i) {
        auto h =
            create_webhook(stack, key, "http://127.0.0.1:9/h" + std::to_string(i), {"review.new"});
        if (i == 0) first = h;
    }
    auto r = stack.request("POST", "/v1/webhooks",
                           {{"url", "http://127.0.0.1:9/h10"}, {"events", {"review.new"}}}, key);
    check_error_envelope(r, 409, "CONFLICT");
    const std::string first_path = "/v1/webhooks/" + first["id"].get<std::string>();
    check_success_envelope(stack.request("PUT", first_path, {{"status", "paused"}}, key), 200);
    create_webhook(stack, key, "http://127.0.0.1:9/h10", {"review.new"});
    // Resuming the paused one would make 11 active.
    check_error_envelope(stack.request("PUT", first_path, {{"status", "active"}}, key), 409,
                         "CONFLICT");
}

TEST_CASE("webhook routes need the webhooks scopes and hide other workspaces' webhooks",
          "[e2e][webhooks]") {
    Stack stack(webhook_stack_options());
    const auto& key = stack.tenant().test_key;
    const auto hook = create_webhook(stack, key, "http://127.0.0.1:9/h", {"review.new"});
    const std::string path = "/v1/webhooks/" + hook["id"].get<std::string>();

    const auto reader = stack.create_key(stack.tenant().workspace_id, "test", "webhooks:read");
    check_success_envelope(stack.request("GET", "/v1/webhooks", nullptr, reader), 200);
    auto denied =
        stack.request("POST", "/v1/webhooks",
                      {{"url", "http://127.0.0.1:9/x"}, {"events", {"review.new"}}}, reader);
    check_error_envelope(denied, 403, "INSUFFICIENT_SCOPE");
    CHECK(denied.json["error"]["details"]["required_scope"] == "webhooks:write");
    const auto other_scope = stack.create_key(stack.tenant().workspace_id, "test", "jobs:read");
    check_error_envelope(stack.request("GET", "/v1/webhooks/logs", nullptr, other_scope), 403,
                         "INSUFFICIENT_SCOPE");

    const auto other = stack.create_tenant("other");
    check_not_found(stack.request("PUT", path, {{"status", "paused"}}, other.test_key));
    check_not_found(stack.request("DELETE", path, nullptr, other.test_key));
    check_not_found(stack.request("POST", path + "/test", nullptr, other.test_key));
    CHECK(stack.request("GET", "/v1/webhooks", nullptr, other.test_key).json["data"].empty());
}

TEST_CASE("every webhook route refuses X-Profile-Id with 403 and writes nothing",
          "[e2e][webhooks][profiles]") {
    Stack stack(webhook_stack_options());
    const auto& tenant = stack.tenant();
    const auto hook =
        create_webhook(stack, tenant.live_key, "http://127.0.0.1:9/h", {"review.new"});
    const std::string path = "/v1/webhooks/" + hook["id"].get<std::string>();
    const auto profile = create_profile(stack, tenant.workspace_id);
    const Headers inside = {{"X-Profile-Id", std::to_string(profile.id)}};
    const nlohmann::json create = {{"url", "http://127.0.0.1:9/p"}, {"events", {"review.new"}}};
    const std::vector<std::tuple<std::string, std::string, nlohmann::json>> calls = {
        {"GET", "/v1/webhooks", nullptr},
        {"POST", "/v1/webhooks", create},
        {"GET", "/v1/webhooks/logs", nullptr},
        {"PUT", path, {{"status", "paused"}}},
        {"DELETE", path, nullptr},
        {"POST", path + "/test", nullptr},
        {"POST", path + "/rotate-secret", nullptr},
        {"POST", path + "/replay-dead-letters", {{"since", "2026-01-01T00:00:00Z"}}},
        {"GET", "/v1/webhooks/deliveries/1", nullptr},
        {"POST", "/v1/webhooks/deliveries/1/replay", nullptr},
    };
    for (const auto& [method, target, body] : calls) {
        INFO(method << " " << target);
        const auto r = stack.request(method, target, body, tenant.live_key, inside);
        check_error_envelope(r, 403, "FORBIDDEN");
        CHECK(r.json["error"]["details"]["header"] == "X-Profile-Id");
    }
    CHECK(stack.count("SELECT COUNT(*) FROM webhook_endpoints") == 1);
    CHECK(stack.count("SELECT COUNT(*) FROM webhook_endpoints WHERE status = 'active'") == 1);
}

TEST_CASE("a webhook's url and events can be changed, and a deleted webhook is gone",
          "[e2e][webhooks]") {
    Stack stack(webhook_stack_options());
    const auto& key = stack.tenant().test_key;
    const auto hook = create_webhook(stack, key, "http://127.0.0.1:9/h", {"review.new"});
    const std::string path = "/v1/webhooks/" + hook["id"].get<std::string>();
    auto r = stack.request(
        "PUT", path,
        {{"url", "http://127.0.0.1:9/new"}, {"events", {"job.failed", "job.completed"}}}, key);
    check_success_envelope(r, 200);
    CHECK(r.json["data"]["url"] == "http://127.0.0.1:9/new");
    CHECK(r.json["data"]["events"] == nlohmann::json::array({"job.failed", "job.completed"}));
    check_error_envelope(stack.request("PUT", path, {{"status", "failing"}}, key), 422,
                         "VALIDATION_ERROR");
    check_error_envelope(stack.request("PUT", path, nlohmann::json::object(), key), 422,
                         "VALIDATION_ERROR");
    check_success_envelope(stack.request("DELETE", path, nullptr, key), 200);
    CHECK(stack.request("GET", "/v1/webhooks", nullptr, key).json["data"].empty());
    check_not_found(stack.request("DELETE", path, nullptr, key));
}

TEST_CASE("the delivery log filters by endpoint, event and status and pages", "[e2e][webhooks]") {
    Stack stack(webhook_stack_options());
    FakeReceiver receiver;
    receiver.program("/no", nlohmann::json::array(), {{"status", 400}});
    const auto& key = stack.tenant().test_key;
    const auto ok =
        create_webhook(stack, key, receiver.url("/ok"), {"review.new", "review.updated"});
    const auto no = create_webhook(stack, key, receiver.url("/no"), {"review.new"});
    for (int i = 0; i < 3; ++i)
        emit_event(stack, stack.tenant().workspace_id, "review.new", {{"i", i}});
    emit_event(stack, stack.tenant().workspace_id, "review.updated", {});
    REQUIRE(Stack::wait_until(
        [&] {
            return stack.count(
                       "SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'delivered'") == 4 &&
                   stack.count("SELECT COUNT(*) FROM webhook_attempts") >= 7;
        },
        15s));
    auto page = stack.request("GET", "/v1/webhooks/logs?per_page=2&page=2", nullptr, key);
    check_success_envelope(page, 200);
    CHECK(page.json["pagination"]["total"] == 7);
    CHECK(page.json["pagination"]["total_pages"] == 4);
    CHECK(page.json["data"].size() == 2);

    auto by_endpoint = stack.request(
        "GET", "/v1/webhooks/logs?webhook_id=" + no["id"].get<std::string>(), nullptr, key);
    CHECK(by_endpoint.json["pagination"]["total"] == 3);
    for (const auto& d : by_endpoint.json["data"]) {
        CHECK(d["endpoint_id"] == no["id"]);
        CHECK(d["attempts"][0]["status_code"] == 400);
        CHECK(d["attempts"][0]["success"] == false);
    }
    auto by_event = stack.request("GET", "/v1/webhooks/logs?event=review.updated", nullptr, key);
    CHECK(by_event.json["pagination"]["total"] == 1);
    auto delivered = stack.request("GET", "/v1/webhooks/logs?status=delivered", nullptr, key);
    CHECK(delivered.json["pagination"]["total"] == 4);
    check_error_envelope(stack.request("GET", "/v1/webhooks/logs?status=lost", nullptr, key), 422,
                         "VALIDATION_ERROR");

    const long long id = delivered.json["data"][0]["delivery_id"];
    check_success_envelope(
        stack.request("GET", "/v1/webhooks/deliveries/" + std::to_string(id), nullptr, key), 200);
    const auto other = stack.create_tenant("other");
    check_not_found(stack.request("POST",
                                  "/v1/webhooks/deliveries/" + std::to_string(id) + "/replay",
                                  nullptr, other.test_key));
    check_not_found(stack.request("POST", "/v1/webhooks/deliveries/abc/replay", nullptr, key));
    (void)ok;
}
