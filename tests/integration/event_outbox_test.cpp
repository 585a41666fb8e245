// The event outbox against a real database: an event is written only when a webhook endpoint can
// receive it (its workspace's, or the profile owner's), and a directly delivered event is written
// already dispatched.
#include "common/domain/events/event_outbox.hpp"
#include "common/core/db/sql_text.hpp"
#include "common/domain/profiles/profile_repository.hpp"
#include "common/domain/webhooks/endpoint_repository.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

using namespace squawk;

namespace {

void endpoint(db::Session& s, long long ws, const std::string& event, const std::string& status) {
    const auto e =
        webhooks::EndpointRepository::insert(s, ws, "https://example.com/h", {event}, "sealed");
    s.execute("UPDATE webhook_endpoints SET status = ? WHERE id = ?", {status, e.id});
}

long long events_named(db::Session& s, const std::string& name) {
    return s.query_one("SELECT COUNT(*) FROM events WHERE name = ?", {name})->integer(0);
}

}  // namespace

TEST_CASE("an event is written only when an active or failing endpoint subscribes to it",
          "[integration][events]") {
    testing::TestDatabase db;
    db.pool().transaction([&](db::Session& s) {
        const long long ws = testing::insert_workspace(s);
        CHECK_FALSE(events::emit(s, ws, "post.published", {{"n", 1}}).has_value());

        endpoint(s, ws, "post.published", "paused");
        CHECK_FALSE(events::emit(s, ws, "post.published", {{"n", 2}}).has_value());
        endpoint(s, ws, "post.failed", "failing");
        endpoint(s, ws, "post.published", "active");
        const auto written = events::emit(s, ws, "post.published", {{"n", 3}});
        REQUIRE(written.has_value());
        CHECK(written->rfind("evt_", 0) == 0);
        CHECK(events::emit(s, ws, "post.failed", {{"n", 4}}).has_value());
        CHECK_FALSE(events::emit(s, ws, "review.new", {{"n", 5}}).has_value());

        const long long other = testing::insert_workspace(s);
        events::emit_many(s, {{ws, "post.published", {{"n", 6}}},
                              {other, "post.published", {{"n", 7}}},
                              {ws, "review.new", {{"n", 8}}},
                              {ws, "post.failed", {{"n", 9}}}});
        CHECK(events_named(s, "post.published") == 2);
        CHECK(events_named(s, "post.failed") == 2);
        CHECK(events_named(s, "review.new") == 0);
        CHECK(s.query_one("SELECT COUNT(*) FROM events WHERE workspace_id = ?", {other})
                  ->integer(0) == 0);
    });
}

TEST_CASE("an event raised in a profile's workspace is written when the owner subscribes",
          "[integration][events]") {
    testing::TestDatabase db;
    db.pool().transaction([&](db::Session& s) {
        const long long owner = testing::insert_workspace(s);
        const auto profile = profiles::ProfileRepository::create(s, owner, "shop", std::nullopt);
        CHECK_FALSE(events::emit(s, profile.workspace_id, "post.failed", {}).has_value());
        endpoint(s, owner, "post.failed", "active");
        CHECK(events::emit(s, profile.workspace_id, "post.failed", {}).has_value());
    });
}

TEST_CASE("an event for one chosen endpoint is written already dispatched, whoever subscribes",
          "[integration][events]") {
    testing::TestDatabase db;
    db.pool().transaction([&](db::Session& s) {
        const long long ws = testing::insert_workspace(s);
        const auto recorded = events::record_dispatched(s, ws, "webhook.test", {{"m", "hi"}});
        const auto row = s.query_one(
            "SELECT public_id, dispatched, dispatched_at IS NOT NULL"
            " FROM events WHERE id = ?",
            {recorded.id});
        REQUIRE(row.has_value());
        CHECK(row->text(0) == recorded.public_id);
        CHECK(row->integer(1) == 1);
        CHECK(row->integer(2) == 1);
        CHECK(events::lock_undispatched(s, 10).empty());
    });
}
