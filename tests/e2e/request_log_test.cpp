// The request log from the outside: every request is recorded in the background with its route
// template, status and identity; GET /logs lists the caller's own entries with filters and
// pages; the scheduler deletes entries past the retention period.
#include "tests/support/api_checks.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;

namespace {

// Polls GET /logs with `query` until it lists at least `count` entries; returns the answer.
HttpResponse logs_with(Stack& stack, const std::string& key, const std::string& query,
                       size_t count) {
    HttpResponse last;
    Stack::wait_until(
        [&] {
            last = stack.request("GET", "/v1/logs" + query, nullptr, key);
            return last.status == 200 && last.json["data"].size() >= count;
        },
        // Slow enough to stay far inside the workspace's 60 requests a minute.
        std::chrono::seconds(10), std::chrono::milliseconds(250));
    return last;
}

}  // namespace

TEST_CASE("every request is recorded with its route template, status, key prefix and request id",
          "[e2e][request_log]") {
    Stack stack(without_worker());
    const auto& tenant = stack.tenant();
    const auto missing = stack.request("GET", "/v1/media/med_nothing", nullptr, tenant.live_key);
    REQUIRE(missing.status == 404);
    const auto me = stack.request("GET", "/v1/me", nullptr, tenant.live_key);
    REQUIRE(me.status == 200);

    const auto listed = logs_with(stack, tenant.live_key, "?route=/v1/media/{media_id}", 1);
    check_success_envelope(listed, 200);
    REQUIRE(listed.json["data"].size() == 1);
    const auto& entry = listed.json["data"][0];
    CHECK(entry["method"] == "GET");
    CHECK(entry["route"] == "/v1/media/{media_id}");
    CHECK(entry["status"] == 404);
    CHECK(entry["key_prefix"] == tenant.live_key.substr(0, 13));
    CHECK(entry["request_id"] == missing.header("x-request-id"));
    CHECK(entry["duration_ms"].get<double>() >= 0);
    CHECK(entry["profile_id"].is_null());
    CHECK(entry["created_at"].get<std::string>().back() == 'Z');

    const auto by_status = logs_with(stack, tenant.live_key, "?status=200&method=GET", 1);
    for (const auto& e : by_status.json["data"]) CHECK(e["status"] == 200);
    // Another workspace sees none of it.
    const auto stranger = stack.create_tenant("stranger");
    const auto theirs = stack.request("GET", "/v1/logs?route=/v1/me", nullptr, stranger.live_key);
    check_success_envelope(theirs, 200);
    CHECK(theirs.json["data"].empty());
}

TEST_CASE("GET /logs pages newest first and records requests made inside a profile",
          "[e2e][request_log]") {
    Stack stack(without_worker());
    const auto& key = stack.tenant().live_key;
    const auto profile = stack.request("POST", "/v1/profiles", {{"name", "P"}}, key);
    const long long profile_id = profile.json["data"].value("id", 0LL);
    for (int i = 0; i < 3; ++i)
        REQUIRE(stack
                    .request("GET", "/v1/jobs", nullptr, key,
                             {{"X-Profile-Id", std::to_string(profile_id)}})
                    .status == 200);
    const auto page = logs_with(stack, key, "?route=/v1/jobs&per_page=2", 2);
    CHECK(page.json["data"].size() == 2);
    CHECK(page.json["pagination"]["total"] == 3);
    CHECK(page.json["pagination"]["total_pages"] == 2);
    CHECK(page.json["data"][0]["id"].get<long long>() >
          page.json["data"][1]["id"].get<long long>());
    CHECK(page.json["data"][0]["profile_id"] == profile_id);
    const auto by_profile = logs_with(stack, key, "?profile_id=" + std::to_string(profile_id), 3);
    CHECK(by_profile.json["pagination"]["total"] == 3);
}

TEST_CASE("bad log filters are refused with details.fields", "[e2e][request_log][bad_input]") {
    Stack stack(without_worker());
    const auto& key = stack.tenant().live_key;
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"method=FETCH", "method"},
        {"status=99", "status"},
        {"status=600", "status"},
        {"status=abc", "status"},
        {"from=yesterday", "from"},
        {"to=2026-13-01T00:00:00Z", "to"},
        {"profile_id=0", "profile_id"},
        {"route=" + std::string(201, 'r'), "route"},
        {"key_prefix=" + std::string(21, 'k'), "key_prefix"},
        {"from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z", "to"},
        {"page=0", "page"},
        {"per_page=101", "per_page"},
    };
    for (const auto& [query, field] : cases) {
        INFO(query);
        const auto r = stack.request("GET", "/v1/logs?" + query, nullptr, key);
        check_error_envelope(r, 422, "VALIDATION_ERROR");
        CHECK(r.json["error"]["details"]["fields"].contains(field));
    }
    const std::string no_logs = stack.create_key(stack.tenant().workspace_id, "live", "jobs:read");
    check_error_envelope(stack.request("GET", "/v1/logs", nullptr, no_logs), 403,
                         "INSUFFICIENT_SCOPE");
}

TEST_CASE("the scheduler deletes request log entries older than the retention period",
          "[e2e][request_log]") {
    StackOptions options = without_worker();
    options.extra_config = "[request_log]\nretention_days = 7\n";
    Stack stack(options);
    const long long ws = stack.tenant().workspace_id;
    stack.db().run([&](squawk::db::Session& s) {
        const std::vector<std::pair<std::string, long long>> rows = {
            {"req_old", 8}, {"req_old", 30}, {"req_recent", 6}};
        for (const auto& [request_id, days] : rows)
            s.execute(
                "INSERT INTO request_log (workspace_id, request_id, method, route, status,"
                " duration_us, created_at) VALUES (?, ?, 'GET', '/v1/me', 200, 1,"
                " UTC_TIMESTAMP(6) - INTERVAL ? DAY)",
                {ws, request_id, days});
    });
    REQUIRE(Stack::wait_until(
        [&] {
            return stack.count("SELECT COUNT(*) FROM request_log WHERE request_id = 'req_old'") ==
                   0;
        },
        std::chrono::seconds(15)));
    CHECK(stack.count("SELECT COUNT(*) FROM request_log WHERE request_id = 'req_recent'") == 1);
}
