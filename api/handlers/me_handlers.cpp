// The caller's own account, for any valid key: its workspace and key (GET /me), its wallet
// (GET /me/balance), billing (spec 2.5) and usage (spec 2.6). Under X-Profile-Id the wallet,
// billing and usage still describe the caller's own account, which pays for everything.
#include "api/handlers/route_families.hpp"

#include "api/render/billing_json.hpp"
#include "api/render/me_json.hpp"
#include "api/server/services.hpp"
#include "api/server/validation.hpp"
#include "common/core/config/config.hpp"
#include "common/core/error/api_error.hpp"

#include <array>

namespace squawk::api::handlers {
namespace {

constexpr auto kPeriods = billing::kUsagePeriods;

billing::BillingService billing_service(Services& services) {
    return billing::BillingService(services.mysql, services.config.billing);
}

Reply get_me(const RequestContext& ctx, Services& services) {
    const auto ws = services.workspaces.find(services.mysql, ctx.workspace_id, ctx.identity_epoch);
    if (!ws) throw ApiError(ErrorCode::NotFound, "The key's workspace no longer exists.");
    return Reply::ok(render::me_json(*ws, ctx.api_key()));
}

Reply get_balance(const RequestContext& ctx, Services& services) {
    return Reply::ok(
        render::balance_json(billing_service(services).balance(ctx.caller_workspace_id)));
}

Reply get_billing(const RequestContext& ctx, Services& services) {
    return Reply::ok(
        render::billing_json(billing_service(services).overview(ctx.caller_workspace_id)));
}

Reply get_usage(const RequestContext& ctx, Services& services) {
    Validator query(ctx.query);
    const std::string period = query.optional_enum("period", kPeriods).value_or("30d");
    query.finish();
    return Reply::ok(render::usage_json(
        period, billing_service(services).usage(ctx.caller_workspace_id, period)));
}

}  // namespace

template <>
std::span<const Route> routes<Family::me>() {
    constexpr Access kAnyKey = Access::any_key();
    static constexpr std::array kRoutes{
        Route::get("/v1/me", kAnyKey, get_me),
        Route::get("/v1/me/balance", kAnyKey, get_balance),
        Route::get("/v1/me/billing", kAnyKey, get_billing),
        Route::get("/v1/me/usage", kAnyKey, get_usage),
    };
    return kRoutes;
}

}  // namespace squawk::api::handlers
