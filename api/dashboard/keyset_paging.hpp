// What the dashboard's long lists (jobs, the request log) share: filters from a form whose "any"
// choice is an empty value, and pages bounded by row ids instead of a count, so a page costs
// the same on a table of millions.
#pragma once

#include "api/server/pagination.hpp"
#include "api/server/url_decode.hpp"
#include "api/server/validation.hpp"
#include "common/core/db/keyset.hpp"
#include "common/core/http/form_encoding.hpp"

#include <nlohmann/json.hpp>

#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace squawk::api::dashboard {

// A filter form's empty field means no filter, as an absent one does.
inline QueryParams given_filters(const QueryParams& query) {
    QueryParams given;
    for (const auto& [name, value] : query)
        if (!value.empty()) given.emplace(name, value);
    return given;
}

// Where a page starts: `before`/`after` a row id (the next/previous links), the newest when
// neither is given; a bad value joins the form's 422.
inline db::Keyset read_keyset(Validator& query) {
    db::Keyset keyset;
    keyset.before_id = query.optional_integer("before", 1, std::numeric_limits<long long>::max());
    keyset.after_id = query.optional_integer("after", 1, std::numeric_limits<long long>::max());
    if (keyset.before_id && keyset.after_id) query.reject("after", "must not be given with before");
    keyset.limit = static_cast<int>(
        query.optional_integer("per_page", 1, api::kMaxPerPage).value_or(api::kDefaultPerPage));
    return keyset;
}

// Links to `path`'s newest, previous and next pages that keep the filters; `filters` holds no
// page field. Each of `found`'s items has an `id`.
template <class Row>
nlohmann::json pager(std::string_view path, const db::Keyset& keyset, const db::Slice<Row>& found,
                     http::FormFields filters) {
    filters.emplace_back("per_page", std::to_string(keyset.limit));
    const auto link = [&](const char* side, std::optional<long long> id) {
        auto fields = filters;
        if (id) fields.emplace_back(side, std::to_string(*id));
        return std::string(path) + "?" + http::form_encode(fields);
    };
    const bool upwards = keyset.reads_newer();
    nlohmann::json out = nlohmann::json::object();
    if (keyset.before_id || keyset.after_id) out["newest"] = link("", std::nullopt);
    if (found.items.empty()) return out;
    if (upwards ? found.more : keyset.before_id.has_value())
        out["previous"] = link("after", found.items.front().id);
    if (upwards || found.more) out["next"] = link("before", found.items.back().id);
    return out;
}

}  // namespace squawk::api::dashboard
