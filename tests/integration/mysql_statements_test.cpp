// The MySQL layer against a real server: statements whose text varies with a batch's size do not
// pile up as prepared statements on the server (which refuses more than max_prepared_stmt_count
// across all connections).
#include "common/core/db/sql_text.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

using namespace squawk;

namespace {

long long prepared_on_server(db::Session& s) {
    return std::stoll(s.query_one("SHOW GLOBAL STATUS LIKE 'Prepared_stmt_count'")->text(1));
}

}  // namespace

// [alone]: it reads a counter of the whole server, which a neighbour's new connections move.
TEST_CASE("a connection keeps a bounded number of prepared statements whatever the batch sizes",
          "[integration][db][alone]") {
    squawk::testing::TestDatabase db;
    db.pool().run([](db::Session& s) {
        const auto before = prepared_on_server(s);
        for (size_t n = 1; n <= 600; ++n) {
            db::Params ids(n, 1LL);
            REQUIRE(s.query("SELECT 1 FROM DUAL WHERE 1 IN (" + db::placeholders(n) + ")", ids)
                        .size() == 1);
        }
        // 600 texts were prepared; other tests' connections may add some meanwhile.
        CHECK(prepared_on_server(s) - before < 400);
    });
}

TEST_CASE("a select carries its column labels, aliases included, shared by repeated runs",
          "[integration][db]") {
    squawk::testing::TestDatabase db;
    db.pool().run([](db::Session& s) {
        const auto first = s.select("SELECT 1 AS one, 'two' AS two, NULL AS nothing FROM DUAL");
        REQUIRE(first.columns);
        CHECK(*first.columns == std::vector<std::string>{"one", "two", "nothing"});
        REQUIRE(first.rows.size() == 1);
        CHECK(first.rows[0].text(1) == "two");
        const auto again = s.select("SELECT 1 AS one, 'two' AS two, NULL AS nothing FROM DUAL");
        CHECK(again.columns == first.columns);
    });
}
