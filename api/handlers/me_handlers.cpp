#include "api/handlers/me_handlers.hpp"

#include "api/render/billing_json.hpp"
#include "api/render/me_json.hpp"
#include "common/core/config/config.hpp"
#include "common/core/error/api_error.hpp"

namespace squawk::api::handlers {

Reply get_me(const RequestContext& ctx, Services& services) {
    const auto ws = services.workspaces.find(services.mysql, ctx.workspace_id, ctx.identity_epoch);
    if (!ws) throw ApiError(ErrorCode::NotFound, "The key's workspace no longer exists.");
    return Reply::ok(render::me_json(*ws, ctx.api_key()));
}

Reply get_balance(const RequestContext& ctx, Services& services) {
    return Reply::ok(
        render::balance_json(billing::BillingService(services.mysql, services.config.billing)
                                 .balance(ctx.caller_workspace_id)));
}

}  // namespace squawk::api::handlers
