// The delivery tables against a real database: the retention sweep, leases kept by their holder
// and recovered from a worker that vanished, and job outcomes raising job events in the same
// transaction.
#include "common/core/crypto/crypto.hpp"
#include "common/core/db/sql_text.hpp"
#include "common/domain/events/event_outbox.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "common/domain/webhooks/delivery_repository.hpp"
#include "common/domain/webhooks/endpoint_repository.hpp"
#include "scheduler/webhook_tasks.hpp"
#include "tests/support/event_sink.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace squawk;
using namespace squawk::webhooks;

namespace {

// One endpoint subscribed to review.new and one dispatched event for it.
long long one_delivery(db::Session& s, long long ws, const config::WebhookSettings& settings) {
    EndpointRepository::insert(s, ws, "https://example.com/h", {"review.new"}, "sealed");
    events::emit(s, ws, "review.new", nlohmann::json::object());
    REQUIRE(DeliveryRepository::dispatch(s, 100, settings) == 1);
    return s.query_one("SELECT MAX(id) FROM webhook_deliveries")->integer(0);
}

// `count` no-op jobs of `ws`, claimed with the token "tok", in the order they were created.
std::vector<jobs::ClaimedJob> claimed_noops(db::Session& s, long long ws, int count) {
    jobs::NewJob n;
    n.workspace_id = ws;
    n.type = "noop";
    n.pool = "generate";
    n.payload = nlohmann::json::object();
    std::vector<long long> ids;
    for (int i = 0; i < count; ++i) ids.push_back(jobs::JobRepository::insert(s, n).id);
    auto claimed =
        jobs::JobRepository::claim(s, ids, "tok", "w", time::now() + std::chrono::minutes(1));
    REQUIRE(claimed.size() == ids.size());
    std::sort(claimed.begin(), claimed.end(),
              [](const auto& a, const auto& b) { return a.id < b.id; });
    return claimed;
}

}  // namespace

TEST_CASE("delivery records older than the retention period are swept with their attempts") {
    testing::TestDatabase db;
    config::WebhookSettings settings;
    const long long id = db.pool().run([&](db::Session& s) {
        const long long ws = testing::insert_workspace(s);
        const long long old = one_delivery(s, ws, settings);
        s.execute(
            "INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms)"
            " VALUES (?, 1, NOW(6), 5)",
            {old});
        s.execute("UPDATE webhook_deliveries SET created_at = ? WHERE id = ?",
                  {db::time_param(time::now() - std::chrono::hours(24 * 91)), old});
        s.execute("UPDATE events SET created_at = ?",
                  {db::time_param(time::now() - std::chrono::hours(24 * 91))});
        events::emit(s, ws, "review.new", nlohmann::json::object());
        DeliveryRepository::dispatch(s, 100, settings);
        return old;
    });
    scheduler::WebhookTasks tasks(db.pool(), settings);
    CHECK(tasks.sweep_old_deliveries() == 1);
    db.pool().run([&](db::Session& s) {
        CHECK(
            s.query_one("SELECT COUNT(*) FROM webhook_deliveries WHERE id = ?", {id})->integer(0) ==
            0);
        CHECK(s.query_one("SELECT COUNT(*) FROM webhook_deliveries")->integer(0) == 1);
        CHECK(s.query_one("SELECT COUNT(*) FROM webhook_attempts")->integer(0) == 0);
        CHECK(s.query_one("SELECT COUNT(*) FROM events")->integer(0) == 1);
    });
}

TEST_CASE(
    "a delivery whose worker stopped renewing its lease is retried, or dead-lettered after "
    "its last attempt") {
    testing::TestDatabase db;
    config::WebhookSettings settings;
    db.pool().run([&](db::Session& s) {
        const long long ws = testing::insert_workspace(s);
        const long long id = one_delivery(s, ws, settings);
        const auto claimed =
            DeliveryRepository::claim(s, 10, "t1", time::now() - std::chrono::seconds(1));
        REQUIRE(claimed.size() == 1);
        CHECK(claimed[0].id == id);
        CHECK(claimed[0].attempts == 1);
        CHECK(DeliveryRepository::reclaim_expired(s, 10) == 1);
        CHECK(s.query_one("SELECT status FROM webhook_deliveries WHERE id = ?", {id})->text(0) ==
              "retrying");
        s.execute("UPDATE webhook_deliveries SET attempts = 4 WHERE id = ?", {id});
        REQUIRE(
            DeliveryRepository::claim(s, 10, "t2", time::now() - std::chrono::seconds(1)).size() ==
            1);
        CHECK(DeliveryRepository::reclaim_expired(s, 10) == 1);
        CHECK(s.query_one("SELECT status FROM webhook_deliveries WHERE id = ?", {id})->text(0) ==
              "dead_letter");
    });
}

TEST_CASE("a lease is extended for the claim tokens its worker still holds, and no others") {
    testing::TestDatabase db;
    config::WebhookSettings settings;
    db.pool().run([&](db::Session& s) {
        const long long ws = testing::insert_workspace(s);
        const long long held = one_delivery(s, ws, settings);
        const auto expired = time::now() - std::chrono::seconds(1);
        REQUIRE(DeliveryRepository::claim(s, 1, "held-token", expired).size() == 1);
        events::emit(s, ws, "review.new", nlohmann::json::object());
        REQUIRE(DeliveryRepository::dispatch(s, 100, settings) == 1);
        const auto lost = DeliveryRepository::claim(s, 1, "lost-token", expired);
        REQUIRE(lost.size() == 1);
        DeliveryRepository::extend_leases(s, {"held-token"}, time::now() + std::chrono::minutes(1));
        CHECK(DeliveryRepository::reclaim_expired(s, 10) == 1);
        const auto status = [&](long long id) {
            return s.query_one("SELECT status FROM webhook_deliveries WHERE id = ?", {id})->text(0);
        };
        CHECK(status(held) == "delivering");
        CHECK(status(lost[0].id) == "retrying");
    });
}

TEST_CASE("recording a job's outcome raises job.completed or job.failed in the same transaction") {
    testing::TestDatabase db;
    db.pool().transaction([&](db::Session& s) {
        const long long ws = testing::insert_workspace(s);
        testing::hold_every_event(s, ws);
        const auto claimed = claimed_noops(s, ws, 2);
        auto ok = jobs::outcome_of(claimed[0], jobs::Outcome::Kind::completed);
        ok.result = {{"x", 1}};
        auto bad = jobs::outcome_of(claimed[1], jobs::Outcome::Kind::failed);
        bad.error = {{"code", "JOB_FAILED"}, {"message", "no"}};
        jobs::Outcome stale = ok;
        stale.claim_token = "other";
        jobs::JobRepository::record_outcomes(s, {ok, bad, stale});
        const auto rows = s.query("SELECT name, data FROM events ORDER BY id");
        REQUIRE(rows.size() == 2);
        CHECK(rows[0].text(0) == "job.completed");
        CHECK(nlohmann::json::parse(rows[0].text(1))["job_id"] == claimed[0].public_id);
        CHECK(nlohmann::json::parse(rows[0].text(1))["result"]["x"] == 1);
        CHECK(rows[1].text(0) == "job.failed");
        CHECK(nlohmann::json::parse(rows[1].text(1))["error"]["message"] == "no");
    });
}

TEST_CASE(
    "a job outcome no endpoint hears is recorded all the same, raises nothing, and a stale claim "
    "of it changes nothing") {
    testing::TestDatabase db;
    db.pool().transaction([&](db::Session& s) {
        const long long ws = testing::insert_workspace(s);
        const auto claimed = claimed_noops(s, ws, 3);
        auto ok = jobs::outcome_of(claimed[0], jobs::Outcome::Kind::completed);
        ok.result = {{"x", 1}};
        auto bad = jobs::outcome_of(claimed[1], jobs::Outcome::Kind::failed);
        bad.error = {{"code", "JOB_FAILED"}, {"message", "no"}};
        auto stale = jobs::outcome_of(claimed[2], jobs::Outcome::Kind::completed);
        stale.claim_token = "other";
        jobs::JobRepository::record_outcomes(s, {ok, bad, stale});
        const auto status = [&](long long id) {
            return s.query_one("SELECT status FROM jobs WHERE id = ?", {id})->text(0);
        };
        CHECK(status(claimed[0].id) == "completed");
        CHECK(status(claimed[1].id) == "failed");
        CHECK(status(claimed[2].id) == "running");
        CHECK(s.query_one("SELECT COUNT(*) FROM events")->integer(0) == 0);
    });
}
