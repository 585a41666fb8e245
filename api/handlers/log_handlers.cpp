// GET /logs (logs:read): the caller's own API requests, newest first, with filters.
#include "api/handlers/route_families.hpp"

#include "api/render/request_log_json.hpp"
#include "api/server/pagination.hpp"
#include "api/server/services.hpp"
#include "api/server/validation.hpp"
#include "common/domain/request_log/request_log_service.hpp"

#include <array>

namespace squawk::api::handlers {
namespace {

constexpr std::array<std::string_view, 5> kMethods{"GET", "POST", "PUT", "PATCH", "DELETE"};

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
    const auto found =
        request_log::RequestLogService(services.mysql).list(filter, page.offset(), page.per_page);
    return page_reply(page, found, render::request_log_json);
}

}  // namespace

template <>
std::span<const Route> routes<Family::logs>() {
    static constexpr std::array kRoutes{
        Route::get("/v1/logs", Access::needs("logs:read"), list_request_logs),
    };
    return kRoutes;
}

}  // namespace squawk::api::handlers
