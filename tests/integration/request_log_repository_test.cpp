// The request log's batched insert against a real database: a batch travels as one JSON document
// read by JSON_TABLE, so what each row holds must come back exactly as the API recorded it.
#include "common/domain/request_log/request_log_repository.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using squawk::request_log::Entry;
using squawk::request_log::Filter;
using squawk::request_log::RequestLogRepository;
using squawk::testing::TestDatabase;

namespace {

Entry entry(std::optional<long long> workspace_id, std::string route, time::TimePoint at) {
    Entry e;
    e.workspace_id = workspace_id;
    e.request_id = "req_" + std::to_string(at.time_since_epoch().count());
    e.method = "GET";
    e.route = std::move(route);
    e.status = 200;
    e.duration_us = 1234;
    e.created_at = at;
    return e;
}

}  // namespace

TEST_CASE("a batch of request log entries is stored field for field, absent values as NULL",
          "[integration][request_log]") {
    TestDatabase db;
    const auto at = time::now();
    db.pool().run([&](db::Session& s) {
        const auto workspace = testing::insert_workspace(s);
        auto inside_profile = entry(workspace, "/v1/caf\xc3\xa9/\"quoted\"\\path", at);
        inside_profile.profile_id = 42;
        inside_profile.key_prefix = "sk_test_ab";
        inside_profile.method = "POST";
        inside_profile.status = 422;
        inside_profile.duration_us = 9876543210;
        auto without_key = entry(workspace, "/v1/me", at + std::chrono::microseconds(1));
        RequestLogRepository::insert_many(
            s, {inside_profile, without_key, entry(std::nullopt, "-", at)});

        Filter filter;
        filter.workspace_id = workspace;
        const auto page = RequestLogRepository::list(s, filter, 0, 10);
        REQUIRE(page.total == 2);
        const auto& newest = page.items.at(0);
        CHECK(newest.route == "/v1/me");
        CHECK_FALSE(newest.profile_id);
        CHECK(newest.key_prefix.empty());
        CHECK(newest.created_at == at + std::chrono::microseconds(1));
        const auto& first = page.items.at(1);
        CHECK(first.route == "/v1/caf\xc3\xa9/\"quoted\"\\path");
        CHECK(first.profile_id == 42);
        CHECK(first.key_prefix == "sk_test_ab");
        CHECK(first.request_id == inside_profile.request_id);
        CHECK(first.method == "POST");
        CHECK(first.status == 422);
        CHECK(first.duration_us == 9876543210);
        CHECK(first.created_at == at);
        // A request refused before its key was read belongs to no workspace.
        CHECK(s.query_one("SELECT COUNT(*) FROM request_log WHERE workspace_id IS NULL", {})
                  ->integer(0) == 1);
    });
}

TEST_CASE("a full batch of 500 request log entries is written in one call",
          "[integration][request_log]") {
    TestDatabase db;
    db.pool().run([&](db::Session& s) {
        const auto workspace = testing::insert_workspace(s);
        std::vector<Entry> batch;
        for (int i = 0; i < 500; ++i)
            batch.push_back(
                entry(workspace, "/v1/jobs/{job_id}", time::now() + std::chrono::microseconds(i)));
        RequestLogRepository::insert_many(s, batch);
        CHECK(RequestLogRepository::count_since(s, workspace, std::nullopt) == 500);
    });
}
