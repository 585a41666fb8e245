// A queue's weekly publishing slots in an IANA time zone, and the walk over the instants they
// stand for. The next-slot lookup and the preview both walk here, so they always agree.
#pragma once

#include "common/core/time/clock.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::social {

struct WeeklySlot {
    int weekday = 0;  // 0 = Monday ... 6 = Sunday
    int minute = 0;   // minutes after local midnight, 0 ... 1439

    bool operator==(const WeeklySlot&) const = default;
    auto operator<=>(const WeeklySlot&) const = default;
};

// "monday" ... "sunday" (any case); nothing for another word.
std::optional<int> parse_weekday(std::string_view name);
std::string_view weekday_name(int weekday);
// "HH:MM", 24-hour; nothing for another shape.
std::optional<int> parse_time_of_day(std::string_view text);
std::string format_time_of_day(int minute);
bool is_time_zone(const std::string& name);

class QueueCalendar {
  public:
    // `time_zone` must pass is_time_zone(); slots are sorted and deduplicated.
    QueueCalendar(const std::string& time_zone, std::vector<WeeklySlot> slots);

    // The slot instants strictly after `after` and at most `until`, in order. A slot whose wall
    // time does not exist that day (clocks jump forward) falls at the moment of the jump; one
    // whose wall time happens twice (clocks fall back) counts once, at its first occurrence.
    std::vector<time::TimePoint> instants(time::TimePoint after, time::TimePoint until) const;

  private:
    const void* zone_;  // date::time_zone, kept out of this header
    std::vector<WeeklySlot> slots_;
};

}  // namespace squawk::social
