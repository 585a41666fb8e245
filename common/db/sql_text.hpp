// Small helpers for statements whose shape depends only on a count, never on input.
#pragma once

#include "common/db/mysql_pool.hpp"
#include "common/time/clock.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace squawk::db {

// "?,?,?" for n parameters.
std::string placeholders(size_t n);

inline Param time_param(time::TimePoint t) {
    return time::format_mysql(t);
}
time::TimePoint time_column(const Row& row, size_t i);
// JSON as stored in a text column; invalid UTF-8 is replaced rather than thrown on.
std::string json_text(const nlohmann::json& value);
// A JSON text column; `fallback` when it is NULL or does not parse.
nlohmann::json json_column(const Row& row, size_t i, nlohmann::json fallback = nullptr);
std::optional<time::TimePoint> optional_time_column(const Row& row, size_t i);

}  // namespace squawk::db
