// The keys of one settings section as data: each key's name, type, range and the field it sets.
// A module declares its section next to its settings struct; the loader composes every section.
#pragma once

#include "common/core/config/config_error.hpp"
#include "common/core/config/host_port.hpp"

#include <functional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace squawk::config {

// A value as written in the file or in the environment, before it is checked against its key.
using Scalar = std::variant<long long, double, bool, std::string>;

[[noreturn]] void bad_value(const std::string& path, const std::string& why);

// Each reads `value` for the key at `path` or raises ConfigError naming the path.
long long as_integer(const Scalar& value, const std::string& path, long long lo, long long hi);
double as_real(const Scalar& value, const std::string& path, double lo, double hi);
bool as_boolean(const Scalar& value, const std::string& path);
std::string as_text(const Scalar& value, const std::string& path, bool may_be_empty = true);
// "host:port" items separated by commas; the empty string is none.
std::vector<HostPort> as_host_port_list(const Scalar& value, const std::string& path);

template <class Settings>
struct Row {
    std::string key;  // below the section: "port", "generate.fibers"
    std::function<void(Settings&, const Scalar&, const std::string& path)> assign;
};

template <class Settings>
struct SectionSchema {
    std::vector<Row<Settings>> rows;
    // Runs once every key is read: defaults that depend on other keys, checks across keys.
    // `section` is the section's path ("jobs"), for messages.
    std::function<void(Settings&, const std::string& section)> finish;
};

template <class Settings, class Field>
Row<Settings> integer(std::string key, Field Settings::*field, long long lo, long long hi) {
    return {std::move(key), [field, lo, hi](Settings& s, const Scalar& v, const std::string& p) {
                s.*field = static_cast<Field>(as_integer(v, p, lo, hi));
            }};
}

template <class Settings>
Row<Settings> real(std::string key, double Settings::*field, double lo, double hi) {
    return {std::move(key), [field, lo, hi](Settings& s, const Scalar& v, const std::string& p) {
                s.*field = as_real(v, p, lo, hi);
            }};
}

template <class Settings>
Row<Settings> boolean(std::string key, bool Settings::*field) {
    return {std::move(key), [field](Settings& s, const Scalar& v, const std::string& p) {
                s.*field = as_boolean(v, p);
            }};
}

template <class Settings>
Row<Settings> text(std::string key, std::string Settings::*field, bool may_be_empty = true) {
    return {std::move(key),
            [field, may_be_empty](Settings& s, const Scalar& v, const std::string& p) {
                s.*field = as_text(v, p, may_be_empty);
            }};
}

template <class Settings>
Row<Settings> host_port_list(std::string key, std::vector<HostPort> Settings::*field) {
    return {std::move(key), [field](Settings& s, const Scalar& v, const std::string& p) {
                s.*field = as_host_port_list(v, p);
            }};
}

// Adds the rows of `inner` under `prefix.` to `outer`, each setting the part of Settings that
// `part` selects: a member, or an entry of a map such as the pool of [workers.<pool>].
template <class Settings, class Part, class Select>
void nest(SectionSchema<Settings>& outer, const std::string& prefix, Select part,
          SectionSchema<Part> inner) {
    for (auto& row : inner.rows)
        outer.rows.push_back(
            {prefix + "." + row.key, [part, assign = std::move(row.assign)](
                                         Settings& s, const Scalar& v, const std::string& path) {
                 assign(part(s), v, path);
             }});
}

}  // namespace squawk::config
