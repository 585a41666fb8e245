// Reads result rows into a struct by column name instead of position. Each name is looked up in
// the result set's labels once per result set, then every row is read by position.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/names/wire_names.hpp"
#include "common/core/time/clock.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::db {

// One column into one field, for the field types the repositories hold. A NULL in a field that
// cannot hold one throws (Row::text); JSON that is NULL or does not parse reads as null.
void read_column(const Row& r, size_t i, long long& out);
void read_column(const Row& r, size_t i, int& out);
void read_column(const Row& r, size_t i, bool& out);
void read_column(const Row& r, size_t i, std::string& out);
void read_column(const Row& r, size_t i, std::optional<std::string>& out);
void read_column(const Row& r, size_t i, std::optional<long long>& out);
void read_column(const Row& r, size_t i, std::optional<int>& out);
void read_column(const Row& r, size_t i, std::optional<double>& out);
void read_column(const Row& r, size_t i, time::TimePoint& out);
void read_column(const Row& r, size_t i, std::optional<time::TimePoint>& out);
void read_column(const Row& r, size_t i, nlohmann::json& out);

// A closed set's value stored by its wire name; a name the table lacks throws.
template <WireEnum E>
void read_column(const Row& r, size_t i, E& out) {
    std::string name;
    read_column(r, i, name);
    out = stored_value<E>(name);
}

// The position of each of `names` among `labels`; throws std::logic_error naming a column the
// result set lacks.
void resolve_columns(const std::vector<std::string>& labels,
                     const std::vector<std::string_view>& names, unsigned short* positions);

template <class T>
class RowMapper {
  public:
    // A column and how it lands in T; db::field<&T::member>("name") for a plain field.
    struct Column {
        std::string_view name;
        void (*read)(T& out, const Row& row, size_t index);
    };

    RowMapper(std::initializer_list<Column> columns) : columns_(columns) {
        if (columns_.size() > kMaxColumns) throw std::logic_error("RowMapper: too many columns");
        for (const auto& c : columns_) {
            names_.push_back(c.name);
            if (!select_list_.empty()) select_list_ += ", ";
            select_list_ += c.name;
        }
    }

    // "a, b, c": a SELECT list reading every bound column, when the names are plain columns.
    const std::string& select_list() const { return select_list_; }

    std::vector<T> all(const ResultSet& rs) const {
        std::array<unsigned short, kMaxColumns> positions;
        resolve_columns(*rs.columns, names_, positions.data());
        std::vector<T> out;
        out.reserve(rs.rows.size());
        for (const auto& row : rs.rows) out.push_back(map(row, positions));
        return out;
    }

    std::optional<T> first(const ResultSet& rs) const {
        if (rs.rows.empty()) return std::nullopt;
        std::array<unsigned short, kMaxColumns> positions;
        resolve_columns(*rs.columns, names_, positions.data());
        return map(rs.rows.front(), positions);
    }

  private:
    static constexpr size_t kMaxColumns = 48;

    T map(const Row& row, const std::array<unsigned short, kMaxColumns>& positions) const {
        T out;
        for (size_t c = 0; c < columns_.size(); ++c) columns_[c].read(out, row, positions[c]);
        return out;
    }

    std::vector<Column> columns_;
    std::vector<std::string_view> names_;
    std::string select_list_;
};

template <class M>
struct MemberPointer;
template <class C, class F>
struct MemberPointer<F C::*> {
    using Class = C;
};

// Binds column `name` to the data member `Member`, read with the read_column overload of its type.
template <auto Member>
auto field(std::string_view name) {
    using Class = typename MemberPointer<decltype(Member)>::Class;
    return typename RowMapper<Class>::Column{
        name, [](Class& out, const Row& row, size_t i) { read_column(row, i, out.*Member); }};
}

}  // namespace squawk::db
