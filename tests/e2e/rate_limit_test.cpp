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

using namespace squawk::testing;

namespace {

// The minute of the limiter's clock (Redis's).
long long redis_minute(squawk::redis::RedisClient& redis) {
    return std::stoll(redis.command({"TIME"}).elements.at(0).text) / 60;
}

// The allowance is a fixed calendar minute, so a scenario that straddles a minute boundary is
// counted in two. Runs `scenario(tenant)` until a run starts and ends inside one minute of the
// limiter's clock, each run with a fresh workspace, and returns that run's result; no waiting
// for the clock to reach a boundary first.
template <class Scenario>
auto within_one_minute(Stack& stack, Scenario scenario) {
    squawk::redis::RedisClient redis(stack.redis_settings());
    for (int attempt = 0;; ++attempt) {
        const Tenant tenant =
            attempt == 0 ? stack.tenant() : stack.create_tenant("fresh " + std::to_string(attempt));
        const long long minute = redis_minute(redis);
        auto result = scenario(tenant);
        if (redis_minute(redis) == minute || attempt == 3) return result;
    }
}

// Spends `count` requests of a key's allowance; all must succeed.
void spend(Stack& stack, const std::string& key, int count) {
    for (int i = 0; i < count; ++i)
        REQUIRE(stack.request("GET", "/v1/me", nullptr, key).status == 200);
}

std::string key_with_limit(Stack& stack, long long workspace_id, int limit) {
    return stack.create_key(workspace_id, "live", "all", limit);
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
    Stack stack(without_worker());
    struct Run {
        HttpResponse first;
        HttpResponse refused;
    };
    const auto run = within_one_minute(stack, [&](const Tenant& tenant) {
        Run r;
        r.first = stack.request("GET", "/v1/me", nullptr, tenant.live_key);
        spend(stack, tenant.live_key, 59);
        r.refused = stack.request("GET", "/v1/jobs", nullptr, tenant.live_key);
        return r;
    });
    const auto& first = run.first;
    check_success_envelope(first, 200);
    CHECK(first.header("x-ratelimit-limit") == "60");
    CHECK(first.header("x-ratelimit-remaining") == "59");
    const long long reset = std::stoll(first.header("x-ratelimit-reset"));
    CHECK(reset > std::time(nullptr) - 1);
    CHECK(reset <= std::time(nullptr) + 61);

    const auto& refused = run.refused;
    check_error_envelope(refused, 429, "RATE_LIMIT_EXCEEDED");
    CHECK(refused.header("x-ratelimit-remaining") == "0");
    const int retry_after = std::stoi(refused.header("retry-after"));
    CHECK(retry_after >= 1);
    CHECK(retry_after <= 60);

    // Polling a job is never limited and carries no rate-limit headers.
    const auto poll =
        stack.request("GET", "/v1/jobs/job_unknown", nullptr, stack.tenant().live_key);
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
    Stack stack(without_worker());
    struct Run {
        HttpResponse shared_refused, test, custom_first, custom_refused;
    };
    const auto run = within_one_minute(stack, [&](const Tenant& tenant) {
        const std::string second_live = stack.create_key(tenant.workspace_id, "live", "all");
        const std::string custom = key_with_limit(stack, tenant.workspace_id, 5);
        Run r;
        spend(stack, tenant.live_key, 30);
        spend(stack, second_live, 30);
        r.shared_refused = stack.request("GET", "/v1/me", nullptr, tenant.live_key);
        r.test = stack.request("GET", "/v1/me", nullptr, tenant.test_key);
        r.custom_first = stack.request("GET", "/v1/me", nullptr, custom);
        spend(stack, custom, 4);
        r.custom_refused = stack.request("GET", "/v1/me", nullptr, custom);
        return r;
    });
    // Both live keys share one allowance of 60.
    check_error_envelope(run.shared_refused, 429, "RATE_LIMIT_EXCEEDED");
    // The test key has its own allowance of the same size.
    check_success_envelope(run.test, 200);
    CHECK(run.test.header("x-ratelimit-limit") == "60");
    CHECK(run.test.header("x-ratelimit-remaining") == "59");
    // The custom key has its own allowance of 5.
    CHECK(run.custom_first.status == 200);
    CHECK(run.custom_first.header("x-ratelimit-limit") == "5");
    check_error_envelope(run.custom_refused, 429, "RATE_LIMIT_EXCEEDED");
    // Another workspace is untouched.
    const auto other = stack.create_tenant("other");
    CHECK(stack.request("GET", "/v1/me", nullptr, other.live_key).status == 200);
}

TEST_CASE("the per-minute tier follows connecting and disconnecting accounts at once",
          "[e2e][rate_limit]") {
    Stack stack(without_worker());
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
    Stack stack(without_worker());
    const std::string second = stack.start_extra_api();
    const auto responses = within_one_minute(stack, [&](const Tenant& tenant) {
        ConcurrentRequest request;
        request.path = "/v1/me";
        request.headers = {{"Authorization", "Bearer " + tenant.live_key}};
        return send_concurrently({stack.base_url(), second}, 200, request);
    });
    int ok = 0, limited = 0;
    for (const auto& r : responses) {
        if (r.status == 200) ++ok;
        if (r.status == 429) ++limited;
    }
    CHECK(ok == 60);
    CHECK(limited == 140);
}
