// The workspace's request log, newest first, with the filters and validation of GET /v1/logs,
// read through the same RequestLogService.
#include "api/dashboard/keyset_paging.hpp"
#include "api/dashboard/page.hpp"
#include "api/server/pagination.hpp"
#include "api/server/services.hpp"
#include "api/server/validation.hpp"
#include "common/domain/request_log/request_log_service.hpp"

#include <array>
#include <cstdio>

namespace squawk::api::dashboard {
namespace {

constexpr std::array<std::string_view, 5> kMethods{"GET", "POST", "PUT", "PATCH", "DELETE"};
// The text filters, as /v1/logs bounds them.
constexpr size_t kMaxRouteChars = 200;
constexpr size_t kMaxPrefixChars = 20;
constexpr long long kMaxProfileId = 999999999999999999LL;

// To the millisecond, since one request follows another closely.
std::string shown_time_ms(time::TimePoint t) {
    std::string text = time::format_iso8601(t).substr(0, 23);
    text[10] = ' ';
    return text;
}

std::string shown_ms(long long duration_us) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", static_cast<double>(duration_us) / 1000.0);
    return text;
}

Reply list_logs(Visit& visit) {
    const QueryParams given = given_filters(visit.query);
    Validator query(given);
    const auto keyset = read_keyset(query);
    request_log::Filter filter;
    filter.workspace_id = visit.workspace_id();
    filter.method = query.optional_enum("method", kMethods);
    if (auto status = query.optional_integer("status", 100, 599))
        filter.status = static_cast<int>(*status);
    filter.route = query.optional_string("route", kMaxRouteChars);
    filter.key_prefix = query.optional_string("key_prefix", kMaxPrefixChars);
    filter.profile_id = query.optional_integer("profile_id", 1, kMaxProfileId);
    filter.from = query.optional_timestamp("from");
    filter.to = query.optional_timestamp("to");
    if (filter.from && filter.to && *filter.to < *filter.from)
        query.reject("to", "must not be before from");

    // The form shows what was asked, valid or not, so a mistake can be corrected in place.
    http::FormFields filters;
    nlohmann::json data = {{"filters", nlohmann::json::object()}};
    for (const char* name :
         {"method", "status", "route", "key_prefix", "profile_id", "from", "to"}) {
        const auto found = given.find(name);
        data["filters"][name] = found == given.end() ? std::string() : found->second;
        if (found != given.end()) filters.emplace_back(name, found->second);
    }
    nlohmann::json methods = nlohmann::json::array();
    for (const auto method : kMethods)
        methods.push_back({{"value", method}, {"selected", filter.method == method}});
    data["methods"] = std::move(methods);
    if (!query.problems().empty()) {
        nlohmann::json errors = nlohmann::json::array();
        for (const auto& [field, reason] : query.problems()) errors.push_back(field + " " + reason);
        data["errors"] = std::move(errors);
        return html_page(visit, "logs", "Request log", std::move(data), 422);
    }
    const auto found =
        request_log::RequestLogService(visit.services.mysql).list_keyset(filter, keyset);
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& e : found.items)
        rows.push_back({{"created_at", shown_time_ms(e.created_at)},
                        {"method", e.method},
                        {"route", e.route},
                        {"status", e.status},
                        {"duration_ms", shown_ms(e.duration_us)},
                        {"request_id", e.request_id},
                        {"key_prefix", e.key_prefix.empty() ? std::string("—") : e.key_prefix}});
    data["entries"] = std::move(rows);
    data["has_entries"] = !found.items.empty();
    data["pager"] = pager("/dashboard/logs", keyset, found, std::move(filters));
    return html_page(visit, "logs", "Request log", std::move(data));
}

const Page kLogPages[] = {
    {"GET", "/dashboard/logs", Gate::workspace_member, list_logs},
};

}  // namespace

std::span<const Page> log_pages() {
    return kLogPages;
}

}  // namespace squawk::api::dashboard
