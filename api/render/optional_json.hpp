// The two ways an absent value appears in the API's JSON: null, or an ISO 8601 time when present.
#pragma once

#include "common/core/time/clock.hpp"

#include <nlohmann/json.hpp>

#include <optional>

namespace squawk::api::render {

template <class T>
nlohmann::json or_null(const std::optional<T>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

inline nlohmann::json optional_time(const std::optional<time::TimePoint>& t) {
    return t ? nlohmann::json(time::format_iso8601(*t)) : nlohmann::json(nullptr);
}

}  // namespace squawk::api::render
