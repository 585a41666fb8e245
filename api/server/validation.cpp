#include "api/server/validation.hpp"

#include "common/core/error/api_error.hpp"
#include "common/core/time/clock.hpp"

#include <algorithm>
#include <charconv>

namespace squawk::api {
namespace {

size_t utf8_length(std::string_view s) {
    return static_cast<size_t>(std::count_if(
        s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

bool is_blank(std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
    });
}

std::string range_text(long long min, long long max) {
    return "must be an integer from " + std::to_string(min) + " to " + std::to_string(max);
}

}  // namespace

Validator::Validator(const nlohmann::json& body)
    : values_(body.is_object() ? body : nlohmann::json::object()), from_query_(false) {}

Validator::Validator(const QueryParams& query)
    : values_(nlohmann::json::object()), from_query_(true) {
    for (const auto& [k, v] : query) values_[k] = v;
}

Validator::Validator(const nlohmann::json& object, std::string prefix)
    : values_(object.is_object() ? object : nlohmann::json::object()),
      from_query_(false),
      prefix_(std::move(prefix)) {}

const nlohmann::json* Validator::lookup(const std::string& name) {
    asked_.insert(name);
    auto it = values_.find(name);
    if (it == values_.end() || it->is_null()) return nullptr;
    return &*it;
}

void Validator::fail(const std::string& name, std::string reason) {
    problems_.emplace(prefix_ + name,
                      std::move(reason));  // the first problem of a field is reported
}

std::string Validator::required_string(const std::string& name, size_t max_chars) {
    const auto* v = lookup(name);
    if (!v) {
        fail(name, "is required");
        return {};
    }
    if (!v->is_string()) {
        fail(name, "must be a string");
        return {};
    }
    const auto& s = v->get_ref<const std::string&>();
    if (is_blank(s)) {
        fail(name, "must not be blank");
        return {};
    }
    if (utf8_length(s) > max_chars) {
        fail(name, "must be at most " + std::to_string(max_chars) + " characters");
        return {};
    }
    return s;
}

std::optional<std::string> Validator::optional_string(const std::string& name, size_t max_chars) {
    const auto* v = lookup(name);
    if (!v) return std::nullopt;
    if (!v->is_string()) {
        fail(name, "must be a string");
        return std::nullopt;
    }
    const auto& s = v->get_ref<const std::string&>();
    if (utf8_length(s) > max_chars) {
        fail(name, "must be at most " + std::to_string(max_chars) + " characters");
        return std::nullopt;
    }
    return s;
}

std::optional<long long> Validator::optional_integer(const std::string& name, long long min,
                                                     long long max) {
    const auto* v = lookup(name);
    if (!v) return std::nullopt;
    long long value = 0;
    if (from_query_ && v->is_string()) {
        const auto& s = v->get_ref<const std::string&>();
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
        if (s.empty() || ec != std::errc() || end != s.data() + s.size()) {
            fail(name, range_text(min, max));
            return std::nullopt;
        }
    } else if (v->is_number_integer()) {
        value = v->get<long long>();
    } else {
        fail(name, range_text(min, max));
        return std::nullopt;
    }
    if (value < min || value > max) {
        fail(name, range_text(min, max));
        return std::nullopt;
    }
    return value;
}

std::optional<std::string> Validator::optional_enum(const std::string& name,
                                                    std::span<const std::string_view> allowed) {
    const auto* v = lookup(name);
    if (!v) return std::nullopt;
    if (v->is_string()) {
        const auto& s = v->get_ref<const std::string&>();
        if (std::find(allowed.begin(), allowed.end(), s) != allowed.end()) return s;
    }
    std::string reason = "must be one of";
    for (size_t i = 0; i < allowed.size(); ++i)
        reason += (i ? ", " : " ") + std::string(allowed[i]);
    fail(name, std::move(reason));
    return std::nullopt;
}

std::optional<std::vector<std::string>> Validator::optional_string_array(
    const std::string& name, size_t max_items, size_t max_chars,
    std::span<const std::string_view> allowed, size_t min_items) {
    const auto* v = lookup(name);
    if (!v) return std::nullopt;
    const std::string shape = "must be an array of " + std::to_string(min_items) + " to " +
                              std::to_string(max_items) + " strings";
    if (!v->is_array() || v->size() < min_items || v->size() > max_items) {
        fail(name, shape);
        return std::nullopt;
    }
    std::vector<std::string> out;
    std::vector<std::string> unknown;
    for (const auto& item : *v) {
        if (!item.is_string() || is_blank(item.get_ref<const std::string&>()) ||
            utf8_length(item.get_ref<const std::string&>()) > max_chars) {
            fail(name, shape + " of at most " + std::to_string(max_chars) + " characters");
            return std::nullopt;
        }
        const auto& s = item.get_ref<const std::string&>();
        if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), s) == allowed.end()) {
            unknown.push_back(s);
            continue;
        }
        if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    }
    if (!unknown.empty()) {
        std::string reason = "unknown values:";
        for (size_t i = 0; i < unknown.size(); ++i) reason += (i ? ", " : " ") + unknown[i];
        fail(name, std::move(reason));
        return std::nullopt;
    }
    return out;
}

std::optional<bool> Validator::optional_bool(const std::string& name) {
    const auto* v = lookup(name);
    if (!v) return std::nullopt;
    if (!v->is_boolean()) {
        fail(name, "must be true or false");
        return std::nullopt;
    }
    return v->get<bool>();
}

const nlohmann::json* Validator::optional_object(const std::string& name) {
    const auto* v = lookup(name);
    if (!v) return nullptr;
    if (!v->is_object()) {
        fail(name, "must be an object");
        return nullptr;
    }
    return v;
}

const nlohmann::json* Validator::optional_array(const std::string& name, size_t min_items,
                                                size_t max_items) {
    const auto* v = lookup(name);
    if (!v) return nullptr;
    if (!v->is_array() || v->size() < min_items || v->size() > max_items) {
        fail(name, "must be an array of " + std::to_string(min_items) + " to " +
                       std::to_string(max_items) + " items");
        return nullptr;
    }
    return v;
}

void Validator::merge(const Validator& nested) {
    for (const auto& [name, reason] : nested.problems_) problems_.emplace(name, reason);
}

std::optional<time::TimePoint> Validator::optional_timestamp(const std::string& name) {
    const auto* v = lookup(name);
    if (!v) return std::nullopt;
    if (v->is_string()) {
        const auto& s = v->get_ref<const std::string&>();
        if (s.size() <= 64)
            if (auto t = time::parse_iso8601(s)) return t;
    }
    fail(name, "must be an ISO 8601 date-time such as 2026-01-31T12:00:00Z");
    return std::nullopt;
}

void Validator::reject_unknown_fields() {
    if (from_query_) return;
    for (const auto& [name, value] : values_.items())
        if (!asked_.count(name)) fail(name, "is not a known field");
}

void Validator::finish() const {
    if (problems_.empty()) return;
    nlohmann::json fields = nlohmann::json::object();
    for (const auto& [name, reason] : problems_) fields[name] = reason;
    throw validation_error(fields);
}

}  // namespace squawk::api
