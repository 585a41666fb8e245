// Request limits of spec 8.1 from the outside: the per-minute allowance by connected accounts,
// separate allowances for test keys and custom-limit keys, the headers, the unlimited job poll,
// and exactness when two API processes share one Redis.
#include "common/core/redis/redis_client.hpp"
#include "common/domain/accounts/connected_accounts.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/concurrent_requests.hpp"
#include "tests/support/stack.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

#include <ctime>
#include <thread>

using namespace squawk::testing;

namespace {

// The allowance is a fixed calendar minute: a test that must stay inside one waits out the end
// of the current minute when little of it is left.
void wait_for_fresh_minute() {
    const long long second = static_cast<long long>(std::time(nullptr)) % 60;
    if (second >= 45) std::this_thread::sleep_for(std::chrono::seconds(61 - second));
}

// Spends `count` requests of a key's allowance; all must succeed.
void spend(Stack& stack, const std::string& key, int count) {
    for (int i = 0; i < count; ++i)
        REQUIRE(stack.request("GET", "/v1/me", nullptr, key).status == 200);
}

std::string key_with_limit(Stack& stack, long long workspace_id, int limit) {
    const auto created =
        stack.ctl({"key", "create", "--workspace", std::to_string(workspace_id), "--type", "live",
                   "--scopes", "all", "--rate-limit", std::to_string(limit)});
    REQUIRE(created.exit_code == 0);
    std::string key = created.out;
    key.erase(key.find_last_not_of(" \n") + 1);
    return key;
}

void connect_accounts(Stack& stack, long long workspace_id, int count) {
    stack.db().run([&](squawk::db::Session& s) {
        for (int i = 0; i < count; ++i)
            s.execute(
                "INSERT INTO social_accounts (workspace_id, platform, status, created_at)"
                " VALUES (?, 'telegram', 'connected', UTC_TIMESTAMP(6))",
                {workspace_id});
    });
    squawk::redis::RedisClient client(stack.redis_settings());
    squawk::accounts::ConnectedAccounts::invalidate(client, workspace_id);
}

}  // namespace

TEST_CASE(
    "a workspace without connected accounts gets 60 requests a minute, then 429 with "
    "Retry-After, and every answer carries the rate-limit headers",
    "[e2e][rate_limit]") {
    StackOptions options;
    options.start_worker = false;
    Stack stack(options);
    wait_for_fresh_minute();
    const auto& key = stack.tenant().live_key;
    const auto first = stack.request("GET", "/v1/me", nullptr, key);
    check_success_envelope(first, 200);
    CHECK(first.header("x-ratelimit-limit") == "60");
    CHECK(first.header("x-ratelimit-remaining") == "59");
    const long long reset = std::stoll(first.header("x-ratelimit-reset"));
    CHECK(reset > std::time(nullptr) - 1);
    CHECK(reset <= std::time(nullptr) + 61);
    spend(stack, key, 59);

    const auto refused = stack.request("GET", "/v1/jobs", nullptr, key);
    check_error_envelope(refused, 429, "RATE_LIMIT_EXCEEDED");
    CHECK(refused.header("x-ratelimit-remaining") == "0");
    const int retry_after = std::stoi(refused.header("retry-after"));
    CHECK(retry_after >= 1);
    CHECK(retry_after <= 60);

    // Polling a job is never limited and carries no rate-limit headers.
    const auto poll = stack.request("GET", "/v1/jobs/job_unknown", nullptr, key);
    CHECK(poll.status == 404);
    CHECK(poll.header("x-ratelimit-limit").empty());
    CHECK(poll.header("retry-after").empty());
    // Health is not limited either.
    CHECK(stack.request("GET", "/v1/health").status == 200);
}

TEST_CASE(
    "test keys, other keys of the workspace and a key with a custom limit use the "
    "allowances the spec gives them",
    "[e2e][rate_limit]") {
    StackOptions options;
    options.start_worker = false;
    Stack stack(options);
    wait_for_fresh_minute();
    const auto& tenant = stack.tenant();
    const std::string second_live = stack.create_key(tenant.workspace_id, "live", "all");
    const std::string custom = key_with_limit(stack, tenant.workspace_id, 5);

    spend(stack, tenant.live_key, 30);
    spend(stack, second_live, 30);
    // Both live keys share one allowance of 60.
    check_error_envelope(stack.request("GET", "/v1/me", nullptr, tenant.live_key), 429,
                         "RATE_LIMIT_EXCEEDED");
    // The test key has its own allowance of the same size.
    const auto test = stack.request("GET", "/v1/me", nullptr, tenant.test_key);
    check_success_envelope(test, 200);
    CHECK(test.header("x-ratelimit-limit") == "60");
    CHECK(test.header("x-ratelimit-remaining") == "59");
    // The custom key has its own allowance of 5.
    const auto custom_first = stack.request("GET", "/v1/me", nullptr, custom);
    CHECK(custom_first.status == 200);
    CHECK(custom_first.header("x-ratelimit-limit") == "5");
    spend(stack, custom, 4);
    check_error_envelope(stack.request("GET", "/v1/me", nullptr, custom), 429,
                         "RATE_LIMIT_EXCEEDED");
    // Another workspace is untouched.
    const auto other = stack.create_tenant("other");
    CHECK(stack.request("GET", "/v1/me", nullptr, other.live_key).status == 200);
}

TEST_CASE("the per-minute tier follows connecting and disconnecting accounts at once",
          "[e2e][rate_limit]") {
    StackOptions options;
    options.start_worker = false;
    Stack stack(options);
    const auto& tenant = stack.tenant();
    CHECK(stack.request("GET", "/v1/me", nullptr, tenant.live_key).header("x-ratelimit-limit") ==
          "60");
    connect_accounts(stack, tenant.workspace_id, 3);
    CHECK(stack.request("GET", "/v1/me", nullptr, tenant.live_key).header("x-ratelimit-limit") ==
          "600");
    stack.db().run([&](squawk::db::Session& s) {
        s.execute(
            "UPDATE social_accounts SET status = 'disconnected' WHERE workspace_id = ?"
            " LIMIT 1",
            {tenant.workspace_id});
    });
    connect_accounts(stack, tenant.workspace_id, 0);
    CHECK(stack.request("GET", "/v1/me", nullptr, tenant.live_key).header("x-ratelimit-limit") ==
          "60");
}

TEST_CASE("200 simultaneous requests through two API processes let exactly 60 through",
          "[e2e][rate_limit][concurrency]") {
    StackOptions options;
    options.start_worker = false;
    Stack stack(options);
    const std::string second = stack.start_extra_api();
    wait_for_fresh_minute();
    ConcurrentRequest request;
    request.path = "/v1/me";
    request.headers = {{"Authorization", "Bearer " + stack.tenant().live_key}};
    const auto responses = send_concurrently({stack.base_url(), second}, 200, request);
    int ok = 0, limited = 0;
    for (const auto& r : responses) {
        if (r.status == 200) ++ok;
        if (r.status == 429) ++limited;
    }
    CHECK(ok == 60);
    CHECK(limited == 140);
}
