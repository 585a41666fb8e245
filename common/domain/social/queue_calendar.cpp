#include "common/domain/social/queue_calendar.hpp"

#include "common/core/text/ascii.hpp"

#include <date/tz.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>

namespace squawk::social {
namespace {

constexpr std::array<std::string_view, 7> kWeekdays = {
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"};

const date::time_zone* find_zone(const std::string& name) {
    try {
        return date::locate_zone(name);
    } catch (const std::runtime_error&) {
        return nullptr;
    }
}

}  // namespace

std::optional<int> parse_weekday(std::string_view name) {
    const std::string lower = text::ascii_lowercase(name);
    for (size_t i = 0; i < kWeekdays.size(); ++i)
        if (lower == kWeekdays[i]) return static_cast<int>(i);
    return std::nullopt;
}

std::string_view weekday_name(int weekday) {
    return kWeekdays.at(static_cast<size_t>(weekday));
}

std::optional<int> parse_time_of_day(std::string_view text) {
    if (text.size() != 5 || text[2] != ':') return std::nullopt;
    for (size_t i : {0, 1, 3, 4})
        if (!std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
    const int hours = (text[0] - '0') * 10 + (text[1] - '0');
    const int minutes = (text[3] - '0') * 10 + (text[4] - '0');
    if (hours > 23 || minutes > 59) return std::nullopt;
    return hours * 60 + minutes;
}

std::string format_time_of_day(int minute) {
    const int h = minute / 60;
    const int m = minute % 60;
    return {static_cast<char>('0' + h / 10), static_cast<char>('0' + h % 10), ':',
            static_cast<char>('0' + m / 10), static_cast<char>('0' + m % 10)};
}

bool is_time_zone(const std::string& name) {
    return !name.empty() && name.size() <= 64 && find_zone(name) != nullptr;
}

QueueCalendar::QueueCalendar(const std::string& time_zone, std::vector<WeeklySlot> slots)
    : zone_(find_zone(time_zone)), slots_(std::move(slots)) {
    if (!zone_) throw std::invalid_argument("unknown time zone: " + time_zone);
    std::sort(slots_.begin(), slots_.end());
    slots_.erase(std::unique(slots_.begin(), slots_.end()), slots_.end());
}

std::vector<time::TimePoint> QueueCalendar::instants(time::TimePoint after,
                                                     time::TimePoint until) const {
    using std::chrono::minutes;
    const auto* zone = static_cast<const date::time_zone*>(zone_);
    std::vector<time::TimePoint> out;
    if (slots_.empty() || until <= after) return out;
    // Local days from the one before `after` to the one after `until` cover every offset.
    const auto first = date::floor<date::days>(zone->to_local(after)) - date::days(1);
    const auto last = date::floor<date::days>(zone->to_local(until)) + date::days(1);
    for (auto day = first; day <= last; day += date::days(1)) {
        const int weekday = static_cast<int>(date::weekday(day).iso_encoding()) - 1;
        for (const auto& slot : slots_) {
            if (slot.weekday != weekday) continue;
            const auto wall = day + minutes(slot.minute);
            const auto instant = std::chrono::time_point_cast<std::chrono::microseconds>(
                zone->to_sys(wall, date::choose::earliest));
            if (instant <= after || instant > until) continue;
            if (!out.empty() && instant <= out.back()) continue;
            out.push_back(instant);
        }
    }
    return out;
}

}  // namespace squawk::social
