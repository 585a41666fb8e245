// The Range header of media downloads: one byte range served as 206, ranges past the end as 416,
// and anything else ignored so the whole file is sent (RFC 9110 section 14).
#include "api/server/byte_range.hpp"

#include <catch2/catch.hpp>

using squawk::api::ByteRangeAnswer;
using squawk::api::resolve_byte_range;
using Kind = ByteRangeAnswer::Kind;

namespace {

constexpr long long kNoCap = 0;

ByteRangeAnswer answer(std::string_view header, long long size, long long cap = kNoCap) {
    return resolve_byte_range(header, size, cap);
}

}  // namespace

TEST_CASE("a download without a Range header sends the whole file") {
    CHECK(resolve_byte_range(std::nullopt, 100, kNoCap).kind == Kind::whole);
}

TEST_CASE("a closed byte range is served inclusively and clipped to the file") {
    const auto a = answer("bytes=10-19", 100);
    CHECK(a.kind == Kind::partial);
    CHECK(a.first == 10);
    CHECK(a.last == 19);
    const auto clipped = answer("bytes=90-500", 100);
    CHECK(clipped.kind == Kind::partial);
    CHECK(clipped.first == 90);
    CHECK(clipped.last == 99);
}

TEST_CASE("an open byte range runs to the end of the file") {
    const auto a = answer("bytes=40-", 100);
    CHECK(a.kind == Kind::partial);
    CHECK(a.first == 40);
    CHECK(a.last == 99);
}

TEST_CASE("a suffix range serves the last bytes, or the whole file when it is shorter") {
    const auto a = answer("bytes=-10", 100);
    CHECK(a.first == 90);
    CHECK(a.last == 99);
    const auto all = answer("bytes=-500", 100);
    CHECK(all.kind == Kind::partial);
    CHECK(all.first == 0);
    CHECK(all.last == 99);
}

TEST_CASE("ranges starting at or past the end and empty suffixes are unsatisfiable") {
    CHECK(answer("bytes=100-", 100).kind == Kind::unsatisfiable);
    CHECK(answer("bytes=100-200", 100).kind == Kind::unsatisfiable);
    CHECK(answer("bytes=-0", 100).kind == Kind::unsatisfiable);
    CHECK(answer("bytes=0-", 0).kind == Kind::unsatisfiable);
    CHECK(answer("bytes=99999999999999999999999-", 100).kind == Kind::unsatisfiable);
}

TEST_CASE("the unit is read in any letter case with spaces around the range") {
    const auto a = answer("  Bytes= 5 - 6 ", 100);
    CHECK(a.kind == Kind::partial);
    CHECK(a.first == 5);
    CHECK(a.last == 6);
}

TEST_CASE("malformed, multiple and foreign-unit ranges are ignored") {
    for (const char* header :
         {"bytes=5-1", "bytes=a-b", "bytes=-", "bytes=", "bytes=1-2,4-5", "items=0-1", "bytes 0-1",
          "bytes=1", "bytes=+1-2", "bytes=--1", "bytes=1-2-3", ""}) {
        INFO(header);
        CHECK(answer(header, 100).kind == Kind::whole);
    }
}

TEST_CASE("a range longer than the cap is shortened from its start") {
    const auto a = answer("bytes=10-", 100, 16);
    CHECK(a.kind == Kind::partial);
    CHECK(a.first == 10);
    CHECK(a.last == 25);
    const auto suffix = answer("bytes=-50", 100, 16);
    CHECK(suffix.first == 50);
    CHECK(suffix.last == 65);
}
