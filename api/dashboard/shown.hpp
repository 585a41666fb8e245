// How pages show values in tables: times to the second in UTC, lists joined by commas.
#pragma once

#include "common/core/time/clock.hpp"

#include <optional>
#include <string>
#include <vector>

namespace squawk::api::dashboard {

// "2026-11-26 22:30:05"
std::string shown_time(time::TimePoint t);
// As above, or "—" for no time.
std::string shown_time(const std::optional<time::TimePoint>& t);
// "a, b, c"
std::string joined(const std::vector<std::string>& items);

}  // namespace squawk::api::dashboard
