// Wall-clock time as the API shows it: UTC, ISO 8601 with microseconds and a trailing Z.
// Also the one place that applies time_scale, so every backoff and interval shrinks together.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace squawk::time {

using Clock = std::chrono::system_clock;
using TimePoint = std::chrono::time_point<Clock, std::chrono::microseconds>;

TimePoint now();
std::string format_iso8601(TimePoint t);                        // 2026-11-22T10:00:00.123456Z
std::optional<TimePoint> parse_iso8601(std::string_view text);  // accepts Z or +hh:mm offsets
std::string format_mysql(TimePoint t);                          // 2026-11-22 10:00:00.123456 (UTC)
std::optional<TimePoint> parse_mysql(std::string_view text);
long long to_unix_ms(TimePoint t);

// Scales durations by the process-wide time_scale (tests and demos shrink real schedules).
void set_time_scale(double scale);
double time_scale();
std::chrono::microseconds scaled(std::chrono::microseconds real_duration);

// Waits `duration` without holding up others sharing the thread: code that runs both on plain
// threads and on worker fibers (connectors) pauses through this. Blocks the thread unless the
// process sets another way (the worker parks only the calling fiber).
using PauseFn = void (*)(std::chrono::microseconds duration);
void set_pause(PauseFn pause);
void pause(std::chrono::microseconds duration);

}  // namespace squawk::time
