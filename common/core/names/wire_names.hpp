// One name table per closed set of values (statuses, stages, error codes): the wire name of each
// enum value, so JSON, SQL binds and the parsing of clients' and rows' strings read one table.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace squawk {

// An enum with a name table: its namespace declares `std::span<const char* const> wire_names(E)`,
// the names in the enum's order (found by argument-dependent lookup; the argument only picks the
// table).
template <class E>
concept WireEnum = std::is_enum_v<E> && requires(E e) {
    { wire_names(e) } -> std::convertible_to<std::span<const char* const>>;
};

template <WireEnum E>
const char* name_of(E value) {
    const std::span<const char* const> names = wire_names(value);
    const auto i = static_cast<size_t>(value);
    if (i >= names.size()) throw std::logic_error("an enum value has no wire name");
    return names[i];
}

// The value a client's string names, or nothing when it names none.
template <WireEnum E>
std::optional<E> parse_name(std::string_view name) {
    const std::span<const char* const> names = wire_names(E{});
    for (size_t i = 0; i < names.size(); ++i)
        if (name == names[i]) return static_cast<E>(i);
    return std::nullopt;
}

// The value a stored string names; one the table lacks was written by hand or by a newer build,
// which this build cannot act on.
template <WireEnum E>
E stored_value(std::string_view name) {
    if (const auto value = parse_name<E>(name)) return *value;
    throw std::runtime_error("unknown stored value \"" + std::string(name) + "\"");
}

// Every value of the set, in the enum's order.
template <WireEnum E>
std::vector<E> all_values() {
    std::vector<E> out(wire_names(E{}).size());
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<E>(i);
    return out;
}

}  // namespace squawk

// JSON shows an enum with a name table as its wire name.
template <squawk::WireEnum E>
struct nlohmann::adl_serializer<E> {
    static void to_json(nlohmann::json& j, E value) { j = squawk::name_of(value); }
};
