// Small helpers for statements whose shape depends only on a count, never on input.
#pragma once

#include "common/db/mysql_pool.hpp"
#include "common/time/clock.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace squawk::db {

// "?,?,?" for n parameters.
std::string placeholders(size_t n);
// Many rows' values as one derived table, for a statement whose shape depends only on the count:
// "SELECT <first_row> UNION ALL SELECT ?,... " with `rows` rows. `first_row` names the columns
// and fixes their types, e.g. "CAST(? AS SIGNED) AS id, ? AS token".
std::string value_rows(std::string_view first_row, size_t rows);

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
