#include "common/core/time/clock.hpp"

#include <catch2/catch.hpp>

using namespace squawk;

TEST_CASE("ISO 8601 times round-trip with microseconds and Z") {
    const auto t = time::parse_iso8601("2026-03-29T01:30:00.123456Z");
    REQUIRE(t);
    CHECK(time::format_iso8601(*t) == "2026-03-29T01:30:00.123456Z");
}

TEST_CASE("ISO 8601 offsets are converted to UTC") {
    const auto t = time::parse_iso8601("2026-03-29T03:30:00+02:00");
    REQUIRE(t);
    CHECK(time::format_iso8601(*t) == "2026-03-29T01:30:00.000000Z");
}

TEST_CASE("times without an offset or with impossible dates are refused") {
    CHECK_FALSE(time::parse_iso8601("2026-03-29T01:30:00"));
    CHECK_FALSE(time::parse_iso8601("2026-02-30T01:30:00Z"));
    CHECK_FALSE(time::parse_iso8601("2026-03-29T25:30:00Z"));
    CHECK_FALSE(time::parse_iso8601("yesterday"));
}

TEST_CASE("every field of a time is written with its leading zeros, in UTC and for MySQL") {
    const auto t = time::parse_iso8601("0987-01-02T03:04:05.000006Z");
    REQUIRE(t);
    CHECK(time::format_iso8601(*t) == "0987-01-02T03:04:05.000006Z");
    CHECK(time::format_mysql(*t) == "0987-01-02 03:04:05.000006");
    const auto last = time::parse_iso8601("2026-12-31T23:59:59.999999Z");
    REQUIRE(last);
    CHECK(time::format_mysql(*last) == "2026-12-31 23:59:59.999999");
}
