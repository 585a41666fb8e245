// Transactions against a real server: a deadlock's victim runs again instead of failing its
// caller, read committed transactions claim rows without blocking inserts behind them, and a
// connection's next transaction is chained to its last one without changing what either sees.
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <future>
#include <latch>

using namespace squawk;

namespace {

// A pool of one connection to the test's database: every call below uses the same connection.
db::MysqlPool one_connection(const squawk::testing::TestDatabase& db) {
    auto settings = db.settings();
    settings.pool_size = 1;
    return db::MysqlPool(settings);
}

long long v_of_row_one(db::Session& s) {
    return s.query_one("SELECT v FROM tx_probe WHERE id = 1")->integer(0);
}

void create_rows(db::MysqlPool& pool) {
    pool.run([](db::Session& s) {
        s.execute(
            "CREATE TABLE IF NOT EXISTS tx_probe (id INT PRIMARY KEY, v INT NOT NULL,"
            " KEY ix_v (v, id))");
        s.execute("DELETE FROM tx_probe");
        s.execute("INSERT INTO tx_probe (id, v) VALUES (1, 0), (2, 0)");
    });
}

}  // namespace

TEST_CASE("two transactions locking rows in opposite orders both commit", "[integration][db]") {
    squawk::testing::TestDatabase db;
    create_rows(db.pool());
    std::latch both_hold_one(2);
    std::atomic<int> runs{0};
    // Each locks its first row, waits until the other holds one too (first run only), then
    // takes the other's row: one of them is chosen as the victim and must run again.
    const auto crossing = [&](int first, int second) {
        bool waited = false;
        db.pool().transaction([&](db::Session& s) {
            ++runs;
            s.execute("UPDATE tx_probe SET v = v + 1 WHERE id = ?", {first});
            if (!waited) {
                waited = true;
                both_hold_one.arrive_and_wait();
            }
            s.execute("UPDATE tx_probe SET v = v + 1 WHERE id = ?", {second});
        });
    };
    auto a = std::async(std::launch::async, crossing, 1, 2);
    auto b = std::async(std::launch::async, crossing, 2, 1);
    REQUIRE_NOTHROW(a.get());
    REQUIRE_NOTHROW(b.get());
    CHECK(runs.load() == 3);
    db.pool().run(
        [](db::Session& s) { CHECK(s.query_one("SELECT SUM(v) FROM tx_probe")->integer(0) == 4); });
}

TEST_CASE("a read committed claim of rows does not hold back inserts after them",
          "[integration][db]") {
    squawk::testing::TestDatabase db;
    create_rows(db.pool());
    std::latch claimed(1);
    std::latch inserted(1);
    auto claim = std::async(std::launch::async, [&] {
        db.pool().transaction(
            [&](db::Session& s) {
                CHECK(s.query(
                           "SELECT id FROM tx_probe WHERE v = 0 ORDER BY id FOR UPDATE SKIP LOCKED")
                          .size() == 2);
                claimed.count_down();
                inserted.wait();
            },
            db::Isolation::read_committed);
    });
    claimed.wait();
    // Under repeatable read this insert would wait for the claim's gap lock until it committed.
    db.pool().run([](db::Session& s) {
        s.execute("SET SESSION innodb_lock_wait_timeout = 2");
        CHECK_NOTHROW(s.execute("INSERT INTO tx_probe (id, v) VALUES (3, 0)"));
        s.execute("SET SESSION innodb_lock_wait_timeout = DEFAULT");
    });
    inserted.count_down();
    claim.get();
}

TEST_CASE("a connection lost during COMMIT reports an unknown outcome that settle_commit resolves",
          "[integration][db]") {
    using namespace std::chrono_literals;
    squawk::testing::TestDatabase db;
    create_rows(db.pool());
    const auto v_of_row_one = [](db::Session& s) {
        return s.query_one("SELECT v FROM tx_probe WHERE id = 1")->integer(0);
    };
    // Another connection kills this one after its update: the COMMIT meets a broken connection.
    REQUIRE_THROWS_AS(db.pool().transaction([&](db::Session& s) {
        s.execute("UPDATE tx_probe SET v = 7 WHERE id = 1");
        const long long own = s.query_one("SELECT CONNECTION_ID()")->integer(0);
        db.pool().run([&](db::Session& other) { other.execute("KILL CONNECTION ?", {own}); });
    }),
                      db::CommitOutcomeUnknown);
    CHECK_FALSE(db.pool().settle_commit([&](db::Session& s) { return v_of_row_one(s) == 7; }, 1s));
    CHECK(db.pool().settle_commit([&](db::Session& s) { return v_of_row_one(s) == 0; }, 1s));
}

TEST_CASE("transactions one after another on a connection start one transaction by statement",
          "[integration][db]") {
    squawk::testing::TestDatabase db;
    create_rows(db.pool());
    auto pool = one_connection(db);
    const auto begun = [](db::Session& s) {
        return s
            .query_one(
                "SELECT VARIABLE_VALUE FROM information_schema.SESSION_STATUS"
                " WHERE VARIABLE_NAME = 'COM_BEGIN'")
            ->integer(0);
    };
    const long long before = pool.run(begun);
    for (int i = 0; i < 3; ++i)
        pool.transaction([](db::Session& s) { s.execute("UPDATE tx_probe SET v = v + 1"); });
    const long long in_fourth = pool.transaction([&](db::Session& s) { return begun(s); });
    CHECK(in_fourth - before == 1);
    db.pool().run(
        [](db::Session& s) { CHECK(s.query_one("SELECT SUM(v) FROM tx_probe")->integer(0) == 6); });
}

TEST_CASE("autocommit work after a transaction commits on its own", "[integration][db]") {
    squawk::testing::TestDatabase db;
    create_rows(db.pool());
    auto pool = one_connection(db);
    pool.transaction([](db::Session& s) { s.execute("UPDATE tx_probe SET v = 1 WHERE id = 1"); });
    pool.run([](db::Session& s) {
        CHECK(s.query_one("SELECT @@in_transaction")->integer(0) == 0);
        s.execute("UPDATE tx_probe SET v = 2 WHERE id = 1");
    });
    // Seen from another connection while the first one sits idle.
    db.pool().run([](db::Session& s) { CHECK(v_of_row_one(s) == 2); });
}

TEST_CASE("a chained transaction keeps the isolation its caller asks for", "[integration][db]") {
    squawk::testing::TestDatabase db;
    create_rows(db.pool());
    auto pool = one_connection(db);
    const auto others_set_v = [&](long long v) {
        db.pool().run(
            [&](db::Session& s) { s.execute("UPDATE tx_probe SET v = ? WHERE id = 1", {v}); });
    };
    SECTION("read committed after repeatable read sees what others commit meanwhile") {
        pool.transaction([](db::Session& s) { v_of_row_one(s); });
        pool.transaction(
            [&](db::Session& s) {
                CHECK(v_of_row_one(s) == 0);
                others_set_v(5);
                CHECK(v_of_row_one(s) == 5);
            },
            db::Isolation::read_committed);
    }
    SECTION("repeatable read after read committed keeps reading its snapshot") {
        pool.transaction([](db::Session& s) { v_of_row_one(s); }, db::Isolation::read_committed);
        pool.transaction([&](db::Session& s) {
            CHECK(v_of_row_one(s) == 0);
            others_set_v(6);
            CHECK(v_of_row_one(s) == 0);
        });
    }
}
