// One validator for request bodies and query strings: typed getters record every problem, then
// finish() throws a single 422 VALIDATION_ERROR whose details.fields names each bad field.
#pragma once

#include "api/server/url_decode.hpp"
#include "common/core/names/wire_names.hpp"
#include "common/core/time/clock.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::api {

// Lengths shared by many routes: ids a client sends back (media, accounts, posts) and names.
inline constexpr size_t kMaxIdChars = 64;
inline constexpr size_t kMaxNameChars = 200;

class Validator {
  public:
    // `body` is a JSON object or null (no body). Values have their JSON types.
    explicit Validator(const nlohmann::json& body);
    // Query values are text; integers are parsed from it.
    explicit Validator(const QueryParams& query);
    // A nested object (`recycle`, one entry of `platform_options`): problems are named
    // `<prefix><field>` so they read as the client's path to the value.
    Validator(const nlohmann::json& object, std::string prefix);

    // Strings are measured in Unicode characters. Required strings must not be blank.
    std::string required_string(const std::string& name, size_t max_chars);
    std::optional<std::string> optional_string(const std::string& name, size_t max_chars);
    std::optional<long long> optional_integer(const std::string& name, long long min,
                                              long long max);
    std::optional<std::string> optional_enum(const std::string& name,
                                             std::span<const std::string_view> allowed);
    // A value of a closed set given by its wire name: one of `allowed`, or any value of the set.
    template <WireEnum E>
    std::optional<E> optional_enum(const std::string& name, std::span<const E> allowed) {
        std::vector<std::string_view> names;
        for (const E value : allowed) names.emplace_back(name_of(value));
        const auto given = optional_enum(name, names);
        return given ? parse_name<E>(*given) : std::nullopt;
    }
    template <WireEnum E>
    std::optional<E> optional_enum(const std::string& name) {
        return optional_enum<E>(name, all_values<E>());
    }

    std::optional<bool> optional_bool(const std::string& name);
    // The member when it is a JSON object; records a problem for any other type.
    const nlohmann::json* optional_object(const std::string& name);
    // The member when it is a JSON array of min_items..max_items values of any type.
    const nlohmann::json* optional_array(const std::string& name, size_t min_items,
                                         size_t max_items);

    // A JSON array of min_items..max_items non-blank strings (duplicates removed, order kept).
    // `allowed` (when not empty) lists the accepted values; the reason names every other one.
    std::optional<std::vector<std::string>> optional_string_array(
        const std::string& name, size_t max_items, size_t max_chars,
        std::span<const std::string_view> allowed = {}, size_t min_items = 1);
    // Records a problem a getter cannot see (a rule across fields, an exact value).
    void reject(const std::string& name, std::string reason) { fail(name, std::move(reason)); }
    // An ISO 8601 date-time with Z or an offset.
    std::optional<time::TimePoint> optional_timestamp(const std::string& name);

    // Takes over every problem a nested validator recorded.
    void merge(const Validator& nested);

    // Records every field of the body no getter asked for (bodies only; queries ignore extras).
    void reject_unknown_fields();
    // Throws validation_error with every recorded problem; returns when there is none.
    void finish() const;

    const std::map<std::string, std::string>& problems() const { return problems_; }

  private:
    const nlohmann::json* lookup(const std::string& name);
    void fail(const std::string& name, std::string reason);

    nlohmann::json values_;
    bool from_query_;
    std::string prefix_;
    std::set<std::string> asked_;
    std::map<std::string, std::string> problems_;
};

}  // namespace squawk::api
