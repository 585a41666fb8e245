// MySQL on a three-node MariaDB Galera cluster (scripts/galera.sh): the schema is one Galera can
// replicate, a transaction that loses certification to another node runs again whole, and a pool
// over the nodes moves on when its node dies, with every acknowledged write kept once.
#include "common/core/db/migrator.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "tests/support/galera_cluster.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

using namespace squawk;
using namespace squawk::testing;

namespace {

std::vector<std::string> first_column(const db::ResultSet& result) {
    std::vector<std::string> values;
    for (const auto& row : result.rows) values.push_back(row.text(0));
    return values;
}

std::string node_name(db::MysqlPool& pool) {
    return pool.run(
        [](db::Session& s) { return s.query_one("SELECT @@wsrep_node_name")->text(0); });
}

}  // namespace

TEST_CASE(
    "the migrations apply on Galera and leave only InnoDB tables with primary keys and "
    "no table locks",
    "[integration][galera]") {
    GaleraCluster cluster;
    db::MysqlPool pool(cluster.settings());
    const std::string migrations = ServerEnv::get().source_dir + "/config/migrations";
    db::Migrator::apply(pool, migrations);

    const auto not_innodb = pool.run([](db::Session& s) {
        return s.select(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()"
            " AND table_type = 'BASE TABLE' AND engine <> 'InnoDB'");
    });
    CHECK(first_column(not_innodb) == std::vector<std::string>{});
    const auto without_primary_key = pool.run([](db::Session& s) {
        return s.select(
            "SELECT t.table_name FROM information_schema.tables t"
            " LEFT JOIN information_schema.table_constraints c ON c.table_schema = t.table_schema"
            " AND c.table_name = t.table_name AND c.constraint_type = 'PRIMARY KEY'"
            " WHERE t.table_schema = DATABASE() AND t.table_type = 'BASE TABLE'"
            " AND c.constraint_name IS NULL");
    });
    CHECK(first_column(without_primary_key) == std::vector<std::string>{});
    for (const auto& file : std::filesystem::directory_iterator(migrations)) {
        std::ifstream in(file.path());
        std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        for (auto& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        INFO(file.path().filename().string());
        CHECK(text.find("LOCK TABLE") == std::string::npos);
        CHECK(text.find("GET_LOCK") == std::string::npos);
    }
}

TEST_CASE(
    "a transaction that loses certification to another node's write runs again whole, and "
    "both writes count",
    "[integration][galera]") {
    GaleraCluster cluster;
    db::MysqlPool first(cluster.node_settings(1));
    db::MysqlPool second(cluster.node_settings(2));
    first.run([](db::Session& s) {
        s.execute("CREATE TABLE counters (id INT PRIMARY KEY, value BIGINT NOT NULL)");
        s.execute("INSERT INTO counters VALUES (1, 0)");
    });

    int attempts = 0;
    first.transaction([&](db::Session& s) {
        ++attempts;
        const auto value =
            s.query_one("SELECT value FROM counters WHERE id = 1 FOR UPDATE")->integer(0);
        s.execute("UPDATE counters SET value = ? WHERE id = 1", {value + 1});
        // Meanwhile the other node commits a write to the same row: this one cannot certify.
        if (attempts == 1)
            second.run([](db::Session& other) {
                other.execute("UPDATE counters SET value = value + 10 WHERE id = 1");
            });
    });

    CHECK(attempts == 2);
    db::MysqlPool third(cluster.node_settings(3));
    CHECK(third.run([](db::Session& s) {
        s.execute("SET SESSION wsrep_sync_wait = 1");
        return s.query_one("SELECT value FROM counters WHERE id = 1")->integer(0);
    }) == 11);
}

TEST_CASE(
    "with wsrep_sync_wait = 3 a conditional UPDATE on one node finds the row another node "
    "committed just before, as a worker's claim must find the job the API wrote",
    "[integration][galera]") {
    GaleraCluster cluster;
    db::MysqlPool writer(cluster.node_settings(1));
    auto claimer_settings = cluster.node_settings(2);
    // Bit 1 makes reads wait for writes committed elsewhere, bit 2 UPDATE and DELETE: a claim
    // that ran before its node applied the insert would match nothing and drop the job.
    claimer_settings.wsrep_sync_wait = 3;
    db::MysqlPool claimer(claimer_settings);
    writer.run([](db::Session& s) {
        s.execute("CREATE TABLE tasks (id BIGINT PRIMARY KEY, status VARCHAR(16) NOT NULL)");
    });

    uint64_t claimed = 0;
    for (int id = 1; id <= 300; ++id) {
        writer.run(
            [&](db::Session& s) { s.execute("INSERT INTO tasks VALUES (?, 'queued')", {id}); });
        claimed += claimer.run([&](db::Session& s) {
            return s.execute(
                "UPDATE tasks SET status = 'running' WHERE id = ? AND status = 'queued'", {id});
        });
    }
    CHECK(claimed == 300);
}

TEST_CASE(
    "a pool over the nodes moves to another node when its node is killed, and every "
    "acknowledged write is kept exactly once",
    "[integration][galera]") {
    GaleraCluster cluster;
    auto settings = cluster.settings();
    settings.wsrep_sync_wait = 1;
    db::MysqlPool pool(settings);
    pool.run([](db::Session& s) {
        s.execute("CREATE TABLE writes (id BIGINT PRIMARY KEY, written_at DATETIME(6) NOT NULL)");
    });
    const std::string first_node = node_name(pool);
    const int first = first_node.back() - '0';

    // Each write is retried until acknowledged; after an unknown COMMIT outcome it looks first.
    std::vector<long long> acknowledged;
    const auto write = [&](long long id) {
        for (;;) {
            try {
                pool.transaction([&](db::Session& s) {
                    s.execute("INSERT INTO writes VALUES (?, NOW(6))", {id});
                });
                acknowledged.push_back(id);
                return;
            } catch (const db::DatabaseUnavailable&) {
                const bool landed = pool.settle_commit(
                    [&](db::Session& s) {
                        return s.query_one("SELECT 1 FROM writes WHERE id = ?", {id}).has_value();
                    },
                    std::chrono::seconds(60));
                if (landed) {
                    acknowledged.push_back(id);
                    return;
                }
            }
        }
    };
    for (long long id = 1; id <= 200; ++id) write(id);
    cluster.kill_node(first);
    for (long long id = 201; id <= 400; ++id) write(id);

    CHECK(node_name(pool) != first_node);
    REQUIRE(acknowledged.size() == 400);
    const auto count = pool.run([](db::Session& s) {
        return s.query_one("SELECT COUNT(*), COUNT(DISTINCT id), MIN(id), MAX(id) FROM writes");
    });
    CHECK(count->integer(0) == 400);
    CHECK(count->integer(1) == 400);
    CHECK(count->integer(2) == 1);
    CHECK(count->integer(3) == 400);

    // The killed node rejoins with everything it missed.
    cluster.start_node(first);
    db::MysqlPool rejoined(cluster.node_settings(first));
    CHECK(rejoined.run([](db::Session& s) {
        return s.query_one("SELECT COUNT(*) FROM writes")->integer(0);
    }) == 400);
}
