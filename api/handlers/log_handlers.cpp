#include "api/handlers/log_handlers.hpp"

#include "api/server/pagination.hpp"
#include "api/server/validation.hpp"
#include "common/domain/request_log/request_log_repository.hpp"

#include <array>

namespace squawk::api::handlers {
namespace {

constexpr std::array<std::string_view, 5> kMethods{"GET", "POST", "PUT", "PATCH", "DELETE"};

nlohmann::json to_api_json(const request_log::Entry& e) {
    return {{"id", e.id},
            {"request_id", e.request_id},
            {"method", e.method},
            {"route", e.route},
            {"status", e.status},
            {"duration_ms", static_cast<double>(e.duration_us) / 1000.0},
            {"key_prefix", e.key_prefix.empty() ? nlohmann::json() : nlohmann::json(e.key_prefix)},
            {"profile_id", e.profile_id ? nlohmann::json(*e.profile_id) : nlohmann::json()},
            {"created_at", time::format_iso8601(e.created_at)}};
}

}  // namespace

Reply list_request_logs(const RequestContext& ctx, Services& services) {
    Validator query(ctx.query);
    const PageRequest page = read_page(query);
    request_log::Filter filter;
    filter.workspace_id = ctx.caller_workspace_id;
    filter.method = query.optional_enum("method", kMethods);
    if (auto status = query.optional_integer("status", 100, 599))
        filter.status = static_cast<int>(*status);
    filter.route = query.optional_string("route", 200);
    filter.key_prefix = query.optional_string("key_prefix", 20);
    filter.profile_id = query.optional_integer("profile_id", 1, 999999999999999999LL);
    filter.from = query.optional_timestamp("from");
    filter.to = query.optional_timestamp("to");
    if (filter.from && filter.to && *filter.to < *filter.from)
        query.reject("to", "must not be before from");
    query.finish();
    // Inside a profile the log shows the requests made in that profile.
    if (ctx.profile_id) filter.profile_id = ctx.profile_id;
    const auto found = services.mysql.run([&](db::Session& s) {
        return request_log::RequestLogRepository::list(s, filter, page.offset(), page.per_page);
    });
    nlohmann::json items = nlohmann::json::array();
    for (const auto& e : found.items) items.push_back(to_api_json(e));
    return Reply::page(std::move(items), pagination_json(page, found.total));
}

}  // namespace squawk::api::handlers
