#include "common/core/db/sql_text.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace squawk::db {

std::string placeholders(size_t n) {
    std::string out;
    out.reserve(n * 2);
    for (size_t i = 0; i < n; ++i) out += i ? ",?" : "?";
    return out;
}

std::string value_rows(size_t rows, size_t columns) {
    const auto row = "(" + placeholders(columns) + ")";
    std::string out;
    out.reserve(rows * (row.size() + 1));
    for (size_t i = 0; i < rows; ++i) {
        if (i) out += ',';
        out += row;
    }
    return out;
}

size_t batch_rows(size_t available, size_t max) {
    if (available >= max) return max;
    return available == 0 ? 0 : std::bit_floor(available);
}

std::string update_from_rows(std::string_view table, std::string_view first_row, size_t rows) {
    const auto per_row = static_cast<size_t>(std::count(first_row.begin(), first_row.end(), '?'));
    const auto next = " UNION ALL SELECT " + placeholders(per_row);
    std::string out = "UPDATE (SELECT ";
    out.append(first_row);
    out.reserve(out.size() + (rows > 0 ? rows - 1 : 0) * next.size() + table.size() + 24);
    for (size_t i = 1; i < rows; ++i) out += next;
    out += ") v STRAIGHT_JOIN ";
    out.append(table);
    out += " ON ";
    return out;
}

time::TimePoint time_column(const Row& row, size_t i) {
    auto t = time::parse_mysql(row.text(i));
    if (!t) throw std::runtime_error("unreadable DATETIME: " + row.text(i));
    return *t;
}

std::optional<time::TimePoint> optional_time_column(const Row& row, size_t i) {
    if (row.is_null(i)) return std::nullopt;
    return time_column(row, i);
}

std::string json_text(const nlohmann::json& value) {
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

nlohmann::json json_column(const Row& row, size_t i, nlohmann::json fallback) {
    if (row.is_null(i)) return fallback;
    auto parsed = nlohmann::json::parse(row.text(i), nullptr, false);
    return parsed.is_discarded() ? fallback : parsed;
}

}  // namespace squawk::db
