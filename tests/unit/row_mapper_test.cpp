// The row mapper reads columns by name whatever their order in the result set, resolves the
// names once per result set, and refuses a result set that lacks a bound column.
#include "common/core/db/row_mapper.hpp"

#include <catch2/catch.hpp>

using namespace squawk;

namespace {

struct Thing {
    long long id = 0;
    std::string name;
    std::optional<std::string> note;
    bool active = false;
    std::optional<time::TimePoint> seen_at;
    nlohmann::json data;
};

const db::RowMapper<Thing> kThings{
    db::field<&Thing::id>("id"),           db::field<&Thing::name>("name"),
    db::field<&Thing::note>("note"),       db::field<&Thing::active>("active"),
    db::field<&Thing::seen_at>("seen_at"), db::field<&Thing::data>("data")};

db::ResultSet result(std::vector<std::string> labels,
                     std::vector<std::vector<std::optional<std::string>>> rows) {
    db::ResultSet rs;
    rs.columns = std::make_shared<const std::vector<std::string>>(std::move(labels));
    for (auto& r : rows) rs.rows.emplace_back(std::move(r));
    return rs;
}

}  // namespace

TEST_CASE("the row mapper binds columns by name, in any order", "[unit][db]") {
    const auto rs = result(
        {"data", "seen_at", "active", "note", "name", "id", "extra"},
        {{"{\"a\":1}", "2026-01-02 03:04:05.000000", "1", std::nullopt, "first", "7", "ignored"},
         {std::nullopt, std::nullopt, "0", "n", "second", "8", "ignored"}});
    const auto things = kThings.all(rs);
    REQUIRE(things.size() == 2);
    CHECK(things[0].id == 7);
    CHECK(things[0].name == "first");
    CHECK_FALSE(things[0].note);
    CHECK(things[0].active);
    CHECK(things[0].seen_at == time::parse_mysql("2026-01-02 03:04:05.000000"));
    CHECK(things[0].data == nlohmann::json{{"a", 1}});
    CHECK(things[1].id == 8);
    CHECK(things[1].note == "n");
    CHECK_FALSE(things[1].active);
    CHECK_FALSE(things[1].seen_at);
    CHECK(things[1].data.is_null());
}

TEST_CASE("the row mapper's select list names every bound column", "[unit][db]") {
    CHECK(kThings.select_list() == "id, name, note, active, seen_at, data");
}

TEST_CASE("the row mapper refuses a result set without a bound column", "[unit][db]") {
    const auto rs = result({"id", "name"}, {{"1", "x"}});
    CHECK_THROWS_WITH(kThings.first(rs), Catch::Contains("no column note"));
}

TEST_CASE("the row mapper's first row of an empty result set is absent", "[unit][db]") {
    CHECK_FALSE(kThings.first(result({"id"}, {})));
}
