// Fuzzes what a queue's slots and time zone are read from: weekday names, HH:MM times and IANA
// zone names from arbitrary bytes, and the walk over a calendar built from what parsed. Each must
// accept or refuse, never crash, hang or walk backwards.
#include "common/domain/social/queue_calendar.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace squawk;
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const auto split = input.find('|');
    const std::string zone(input.substr(0, split));
    const std::string_view rest = split == std::string_view::npos ? "" : input.substr(split + 1);
    // The rest is slots as "day@HH:MM", separated by spaces.
    std::vector<social::WeeklySlot> slots;
    size_t at = 0;
    while (at < rest.size() && slots.size() < 200) {
        const size_t end = std::min(rest.find(' ', at), rest.size());
        const auto token = rest.substr(at, end - at);
        const auto sign = token.find('@');
        if (sign != std::string_view::npos) {
            const auto day = social::parse_weekday(token.substr(0, sign));
            const auto minute = social::parse_time_of_day(token.substr(sign + 1));
            if (day && minute) slots.push_back({*day, *minute});
        }
        at = end + 1;
    }
    if (!social::is_time_zone(zone)) return 0;
    const social::QueueCalendar calendar(zone, slots);
    const auto start = *time::parse_iso8601("2026-01-01T00:00:00Z");
    const auto instants = calendar.instants(start, start + std::chrono::hours(24 * 400));
    for (size_t i = 1; i < instants.size(); ++i)
        if (instants[i] <= instants[i - 1]) std::abort();
    return 0;
}
