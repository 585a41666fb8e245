// Small helpers for statements whose shape depends only on a count, never on input.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <type_traits>

namespace squawk::db {

// "?,?,?" for n parameters.
std::string placeholders(size_t n);
// "(?,?),(?,?),(?,?)" for a VALUES list of `rows` rows of `columns` parameters each.
std::string value_rows(size_t rows, size_t columns);

// How many of `available` waiting rows a batch writer takes at once (at most `max`): a power of
// two, or `max`. A batch statement's text depends on its row count; few distinct counts keep the
// texts prepared on each connection instead of parsed anew for every batch. The rest waits for
// the next batch, which starts at once.
size_t batch_rows(size_t available, size_t max);
// The head of an update of many rows, each with its own values, in one statement whose shape
// depends only on the count: "UPDATE (SELECT <first_row> UNION ALL SELECT ?,...) v STRAIGHT_JOIN
// <table> ON " with `rows` rows; the caller appends the join condition and the SET. `first_row`
// names the columns of v and fixes their types, e.g. "CAST(? AS SIGNED) AS id, ? AS token". The
// rows drive the join: left to itself, the optimizer may walk an index on the WHERE clause's
// status instead, through every row in that status, locking them all.
std::string update_from_rows(std::string_view table, std::string_view first_row, size_t rows);

// NULL for an empty optional, else its value.
template <class T>
Param optional_param(const std::optional<T>& value) {
    if (!value) return Param(nullptr);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
        return Param(static_cast<long long>(*value));
    else
        return Param(*value);
}

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
