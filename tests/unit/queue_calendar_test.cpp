// The weekly slot walk of posting queues: local wall times in an IANA zone, across both
// daylight-saving changes of a year.
#include "common/domain/social/queue_calendar.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using social::QueueCalendar;
using social::WeeklySlot;

namespace {

time::TimePoint at(const char* iso) {
    return *time::parse_iso8601(iso);
}

std::vector<std::string> formatted(const std::vector<time::TimePoint>& instants) {
    std::vector<std::string> out;
    for (const auto t : instants) out.push_back(time::format_iso8601(t));
    return out;
}

constexpr int kSunday = 6;
constexpr int kMonday = 0;

}  // namespace

TEST_CASE("slots are local wall times: Berlin 09:00 is 08:00Z in winter and 07:00Z in summer") {
    const QueueCalendar calendar("Europe/Berlin", {{kMonday, 9 * 60}});
    CHECK(formatted(calendar.instants(at("2026-03-20T00:00:00Z"), at("2026-04-01T00:00:00Z"))) ==
          std::vector<std::string>{"2026-03-23T08:00:00.000000Z", "2026-03-30T07:00:00.000000Z"});
}

TEST_CASE("a slot inside the spring-forward gap falls at the moment the clocks jump") {
    // New York, 2026-03-08: 02:00 EST becomes 03:00 EDT, so 02:30 does not exist that day.
    const QueueCalendar calendar("America/New_York", {{kSunday, 2 * 60 + 30}});
    CHECK(formatted(calendar.instants(at("2026-02-28T00:00:00Z"), at("2026-03-16T00:00:00Z"))) ==
          std::vector<std::string>{"2026-03-01T07:30:00.000000Z", "2026-03-08T07:00:00.000000Z",
                                   "2026-03-15T06:30:00.000000Z"});
}

TEST_CASE("slots that meet in the gap count once") {
    const QueueCalendar calendar(
        "America/New_York", {{kSunday, 2 * 60 + 15}, {kSunday, 2 * 60 + 45}, {kSunday, 3 * 60}});
    CHECK(formatted(calendar.instants(at("2026-03-07T00:00:00Z"), at("2026-03-09T00:00:00Z"))) ==
          std::vector<std::string>{"2026-03-08T07:00:00.000000Z"});
}

TEST_CASE("a slot in the repeated fall-back hour is taken once, at its first occurrence") {
    // New York, 2026-11-01: 02:00 EDT becomes 01:00 EST, so 01:30 happens twice.
    const QueueCalendar calendar("America/New_York", {{kSunday, 60 + 30}});
    CHECK(formatted(calendar.instants(at("2026-10-31T00:00:00Z"), at("2026-11-09T00:00:00Z"))) ==
          std::vector<std::string>{"2026-11-01T05:30:00.000000Z", "2026-11-08T06:30:00.000000Z"});
}

TEST_CASE("the walk excludes its start and includes its end, in order across weekdays") {
    const QueueCalendar calendar("UTC", {{2, 12 * 60}, {kMonday, 9 * 60}, {kMonday, 9 * 60}});
    const auto instants =
        formatted(calendar.instants(at("2026-11-23T09:00:00Z"), at("2026-11-30T09:00:00Z")));
    CHECK(instants ==
          std::vector<std::string>{"2026-11-25T12:00:00.000000Z", "2026-11-30T09:00:00.000000Z"});
}

TEST_CASE("weekday and time-of-day text parse strictly") {
    CHECK(social::parse_weekday("Monday") == 0);
    CHECK(social::parse_weekday("sunday") == 6);
    CHECK_FALSE(social::parse_weekday("mon"));
    CHECK(social::parse_time_of_day("00:00") == 0);
    CHECK(social::parse_time_of_day("23:59") == 23 * 60 + 59);
    for (const char* bad : {"24:00", "9:00", "09:60", "09-00", "0900", "ab:cd", ""})
        CHECK_FALSE(social::parse_time_of_day(bad));
    CHECK(social::format_time_of_day(9 * 60 + 5) == "09:05");
}

TEST_CASE("time zones are IANA names from the system database") {
    CHECK(social::is_time_zone("Europe/Berlin"));
    CHECK(social::is_time_zone("UTC"));
    CHECK_FALSE(social::is_time_zone("Mars/Olympus_Mons"));
    CHECK_FALSE(social::is_time_zone(""));
    CHECK_THROWS(QueueCalendar("Nowhere/Else", {{kMonday, 0}}));
}
