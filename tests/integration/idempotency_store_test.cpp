// Idempotency records against a real server: a keyed request's write marks its record in the
// same transaction (db::CommitCompanion), so a write that committed is never run again for the
// key, even when the connection fails right after COMMIT and the answer is never stored.
#include "common/domain/idempotency/idempotency_store.hpp"
#include "common/core/db/commit_companion.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using idempotency::Claim;
using idempotency::IdempotencyStore;
using namespace std::chrono_literals;

namespace {

// Locks lapse at once, so a retry may take over any claim that is not protected otherwise.
constexpr auto kNoLock = 0s;

struct KeyedRequest {
    testing::TestDatabase db;
    db::MysqlPool& pool = db.pool();
    idempotency::Request request;

    KeyedRequest() {
        request.workspace_id =
            pool.run([](db::Session& s) { return testing::insert_workspace(s); });
        request.key = "k-1";
        request.endpoint = "POST /v1/jobs/ping";
        request.request_hash = "hash";
    }

    Claim claim() {
        return pool.run(
            [&](db::Session& s) { return IdempotencyStore::claim(s, request, 24h, kNoLock); });
    }

    long long writes() {
        return pool.run([](db::Session& s) {
            return s.query_one("SELECT COUNT(*) FROM workspaces WHERE name = 'written'")
                ->integer(0);
        });
    }

    // The handler's write, in a transaction that carries the record's mark as the API's does.
    void write(const Claim& c, bool fail) {
        const db::CommitCompanion mark(
            [id = c.record_id](db::Session& s) { IdempotencyStore::mark_effect_committed(s, id); });
        pool.transaction([&](db::Session& s) {
            s.execute("INSERT INTO workspaces (name, created_at) VALUES ('written', NOW(6))");
            if (fail) throw std::runtime_error("the handler failed after its insert");
        });
    }

    // What the API does when a request fails: give the key back.
    void release(const Claim& c) {
        pool.run([&](db::Session& s) { IdempotencyStore::release(s, c.record_id); });
    }
};

}  // namespace

TEST_CASE_METHOD(KeyedRequest,
                 "a keyed write that committed is never run again when the connection fails right "
                 "after COMMIT and its answer is lost",
                 "[integration][idempotency]") {
    const auto first = claim();
    REQUIRE(first.kind == Claim::Kind::acquired);
    write(first, false);
    // The connection breaks before the answer is stored, so storing the answer fails.
    CHECK_THROWS_AS(pool.run([&](db::Session& s) {
        const long long own = s.query_one("SELECT CONNECTION_ID()")->integer(0);
        db::MysqlPool(db.settings()).run([&](db::Session& other) {
            other.execute("KILL CONNECTION ?", {own});
        });
        IdempotencyStore::complete(s, first.record_id, 202, "{}");
    }),
                    db::DatabaseUnavailable);
    release(first);

    const auto retry = claim();
    CHECK(retry.kind == Claim::Kind::answer_lost);
    CHECK(retry.record_id == first.record_id);
    CHECK(writes() == 1);
}

TEST_CASE_METHOD(KeyedRequest, "a keyed write that rolled back gives its key back",
                 "[integration][idempotency]") {
    const auto first = claim();
    REQUIRE(first.kind == Claim::Kind::acquired);
    CHECK_THROWS(write(first, true));
    release(first);
    CHECK(writes() == 0);
    CHECK(claim().kind == Claim::Kind::acquired);
}

TEST_CASE_METHOD(KeyedRequest,
                 "a claim whose process died before its write is taken over once its lock lapses",
                 "[integration][idempotency]") {
    const auto first = claim();
    REQUIRE(first.kind == Claim::Kind::acquired);
    const auto retry = claim();
    CHECK(retry.kind == Claim::Kind::acquired);
    CHECK(retry.record_id == first.record_id);
}

TEST_CASE_METHOD(KeyedRequest, "transactions after the companion's scope do not mark the record",
                 "[integration][idempotency]") {
    const auto first = claim();
    CHECK_THROWS(write(first, true));
    pool.transaction([](db::Session& s) {
        s.execute("INSERT INTO workspaces (name, created_at) VALUES ('later', NOW(6))");
    });
    release(first);
    CHECK(claim().kind == Claim::Kind::acquired);
}
