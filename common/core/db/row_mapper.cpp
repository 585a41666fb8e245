#include "common/core/db/row_mapper.hpp"

#include "common/core/db/sql_text.hpp"

#include <algorithm>
#include <stdexcept>

namespace squawk::db {

void read_column(const Row& r, size_t i, long long& out) {
    out = r.integer(i);
}

void read_column(const Row& r, size_t i, int& out) {
    out = static_cast<int>(r.integer(i));
}

void read_column(const Row& r, size_t i, bool& out) {
    out = r.integer(i) != 0;
}

void read_column(const Row& r, size_t i, std::string& out) {
    out = r.text(i);
}

void read_column(const Row& r, size_t i, std::optional<std::string>& out) {
    out = r.optional_text(i);
}

void read_column(const Row& r, size_t i, std::optional<long long>& out) {
    out = r.optional_integer(i);
}

void read_column(const Row& r, size_t i, std::optional<int>& out) {
    const auto value = r.optional_integer(i);
    out = value ? std::optional<int>(static_cast<int>(*value)) : std::nullopt;
}

void read_column(const Row& r, size_t i, std::optional<double>& out) {
    if (r.is_null(i))
        out.reset();
    else
        out = r.real(i);
}

void read_column(const Row& r, size_t i, time::TimePoint& out) {
    out = time_column(r, i);
}

void read_column(const Row& r, size_t i, std::optional<time::TimePoint>& out) {
    out = optional_time_column(r, i);
}

void read_column(const Row& r, size_t i, nlohmann::json& out) {
    out = json_column(r, i);
}

void resolve_columns(const std::vector<std::string>& labels,
                     const std::vector<std::string_view>& names, unsigned short* positions) {
    for (size_t n = 0; n < names.size(); ++n) {
        const auto at = std::find(labels.begin(), labels.end(), names[n]);
        if (at == labels.end())
            throw std::logic_error("the result set has no column " + std::string(names[n]));
        positions[n] = static_cast<unsigned short>(at - labels.begin());
    }
}

}  // namespace squawk::db
