// The dashboard in a real browser: Debian's headless Chromium, driven by the flows in
// tests/browser/ through the real stack, with an accessibility check and a screenshot of each page
// (build/browser-screenshots/).
#include "tests/e2e/dashboard_browsing.hpp"
#include "tests/support/fake_receiver.hpp"
#include "tests/support/webhook_checks.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;

TEST_CASE("in headless Chromium a developer signs in, creates, uses and revokes a key, signs out") {
    Stack stack(api_only());
    create_dashboard_user(stack,
                          {"--workspace", std::to_string(stack.tenant().workspace_id), "--email",
                           "dev@example.com", "--role", "developer"},
                          "correct horse battery");
    const auto result =
        run_browser_script(stack, "keys.mjs", "dev@example.com", "correct horse battery");
    INFO(result.out << result.err << stack.post_mortem());
    CHECK(result.exit_code == 0);
    CHECK(result.out.find("checked signed-out") != std::string::npos);
}

TEST_CASE(
    "in headless Chromium a developer reads usage charts for two periods, then creates and "
    "pauses a profile") {
    Stack stack(api_only());
    create_dashboard_user(stack,
                          {"--workspace", std::to_string(stack.tenant().workspace_id), "--email",
                           "dev@example.com", "--role", "developer"},
                          "correct horse battery");
    REQUIRE(stack.request("GET", "/v1/me", nullptr, stack.tenant().test_key).status == 200);
    const auto result = run_browser_script(stack, "usage.mjs", "dev@example.com",
                                           "correct horse battery", {"PROFILE_NAME=Corner shop"});
    INFO(result.out << result.err << stack.post_mortem());
    CHECK(result.exit_code == 0);
    CHECK(result.out.find("checked profile-paused") != std::string::npos);
    const auto profiles = stack.request("GET", "/v1/profiles", nullptr, stack.tenant().test_key);
    REQUIRE(profiles.json["data"].size() == 1);
    CHECK(profiles.json["data"][0]["name"] == "Corner shop");
    CHECK(profiles.json["data"][0]["status"] == "paused");
}

TEST_CASE("in headless Chromium an owner invites a developer who joins, then changes password") {
    Stack stack(api_only());
    create_dashboard_user(stack,
                          {"--workspace", std::to_string(stack.tenant().workspace_id), "--email",
                           "owner@example.com", "--role", "owner"},
                          "correct horse battery");
    const auto result = run_browser_script(
        stack, "accounts.mjs", "owner@example.com", "correct horse battery",
        {"INVITEE_EMAIL=invitee@example.com", "NEW_PASSWORD=a much better passphrase"});
    INFO(result.out << result.err << stack.post_mortem());
    CHECK(result.exit_code == 0);
    CHECK(result.out.find("checked signed-in-with-new-password") != std::string::npos);
}

TEST_CASE(
    "in headless Chromium an operator watches the operations page refresh in place and "
    "retries a dead-lettered job") {
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    const auto submitted =
        stack.request("POST", "/v1/audio/text-to-speech", {{"text", "Second time lucky."}}, key);
    REQUIRE(submitted.status == 202);
    const std::string job_id = submitted.json["data"]["job_id"];
    // The row a worker leaves when a job fails on its last attempt.
    stack.db().run([&](squawk::db::Session& s) {
        s.execute(
            "UPDATE jobs SET status = 'failed', dead_lettered = 1, attempts = max_attempts,"
            " error = '{\"code\":\"JOB_FAILED\",\"message\":\"gave up\"}'"
            " WHERE public_id = ?",
            {job_id});
    });
    create_dashboard_user(stack, {"--operator", "--email", "ops@example.com"},
                          "correct horse battery");
    const auto result = run_browser_script(stack, "ops.mjs", "ops@example.com",
                                           "correct horse battery", {"JOB_ID=" + job_id});
    INFO(result.out << result.err << stack.post_mortem());
    CHECK(result.exit_code == 0);
    CHECK(result.out.find("checked dead-letter-retried") != std::string::npos);
    CHECK(stack.request("GET", "/v1/jobs/" + job_id, nullptr, key).json["data"]["status"] ==
          "queued");
}

TEST_CASE(
    "in headless Chromium a developer adds a webhook, sees its test delivered, and replays a "
    "dead letter that the webhook worker then delivers") {
    Stack stack(webhook_stack_options(0.002));
    FakeReceiver receiver;
    receiver.program("/dead", nlohmann::json::array({{{"status", 500}},
                                                     {{"status", 500}},
                                                     {{"status", 500}},
                                                     {{"status", 500}},
                                                     {{"status", 500}}}));
    const auto& key = stack.tenant().test_key;
    const auto hook = create_webhook(stack, key, receiver.url("/dead"), {"review.new"});
    const auto event =
        emit_event(stack, stack.tenant().workspace_id, "review.new", {{"review_id", "r1"}});
    REQUIRE(Stack::wait_until([&] { return deliveries_in(stack, event, "dead_letter") == 1; },
                              std::chrono::seconds(30)));
    const auto dead = delivery_log(stack, key, event, hook["id"])["delivery_id"].get<long long>();
    create_dashboard_user(stack,
                          {"--workspace", std::to_string(stack.tenant().workspace_id), "--email",
                           "dev@example.com", "--role", "developer"},
                          "correct horse battery");
    const auto result = run_browser_script(
        stack, "webhooks.mjs", "dev@example.com", "correct horse battery",
        {"RECEIVER_URL=" + receiver.url("/browser"), "DEAD_DELIVERY=" + std::to_string(dead)});
    INFO(result.out << result.err << stack.post_mortem());
    CHECK(result.exit_code == 0);
    CHECK(result.out.find("checked delivery-phone") != std::string::npos);
    const auto tests = receiver.requests("/browser");
    REQUIRE(tests.size() == 1);
    CHECK(nlohmann::json::parse(tests[0]["body"].get<std::string>())["event"] == "webhook.test");
    CHECK(deliveries_in(stack, event, "delivered") == 1);
    CHECK(receiver.requests("/dead").size() == 6);
}

TEST_CASE("in headless Chromium a developer finds a queued job, cancels it and sees the request") {
    Stack stack(api_only());
    create_dashboard_user(stack,
                          {"--workspace", std::to_string(stack.tenant().workspace_id), "--email",
                           "dev@example.com", "--role", "developer"},
                          "correct horse battery");
    const auto result =
        run_browser_script(stack, "jobs.mjs", "dev@example.com", "correct horse battery",
                           {"SQUAWK_API_KEY=" + stack.tenant().test_key});
    INFO(result.out << result.err << stack.post_mortem());
    CHECK(result.exit_code == 0);
    CHECK(result.out.find("checked logs-phone") != std::string::npos);
}

TEST_CASE("in headless Chromium a viewer finds a scheduled post by week and month and opens it") {
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    const auto account = stack.request("POST", "/v1/social/connect/telegram",
                                       {{"sandbox", true}, {"name", "Sandbox Telegram"}}, key);
    REQUIRE(account.status == 201);
    const auto when =
        squawk::time::format_iso8601(squawk::time::now() + std::chrono::hours(24 * 9));
    const auto post =
        stack.request("POST", "/v1/social/posts/schedule",
                      {{"content", "Browser launch notes"},
                       {"account_ids", nlohmann::json::array({account.json["data"]["id"]})},
                       {"scheduled_time", when}},
                      key);
    REQUIRE(post.status == 201);
    create_dashboard_user(stack,
                          {"--workspace", std::to_string(stack.tenant().workspace_id), "--email",
                           "viewer@example.com", "--role", "viewer"},
                          "correct horse battery");
    const auto result =
        run_browser_script(stack, "posts.mjs", "viewer@example.com", "correct horse battery",
                           {"POST_DATE=" + when.substr(0, 10), "POST_TEXT=Browser launch notes"});
    INFO(result.out << result.err << stack.post_mortem());
    CHECK(result.exit_code == 0);
    CHECK(result.out.find("checked posts-phone") != std::string::npos);
}
