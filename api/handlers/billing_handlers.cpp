#include "api/handlers/billing_handlers.hpp"

#include "api/render/billing_json.hpp"
#include "api/server/validation.hpp"
#include "common/core/config/config.hpp"

#include <array>

namespace squawk::api::handlers {
namespace {

constexpr std::array<std::string_view, 5> kPeriods{"today", "7d", "30d", "90d", "all"};

billing::BillingService service(Services& services) {
    return billing::BillingService(services.mysql, services.config.billing);
}

}  // namespace

Reply get_billing(const RequestContext& ctx, Services& services) {
    return Reply::ok(render::billing_json(service(services).overview(ctx.caller_workspace_id)));
}

Reply get_usage(const RequestContext& ctx, Services& services) {
    Validator query(ctx.query);
    const std::string period = query.optional_enum("period", kPeriods).value_or("30d");
    query.finish();
    return Reply::ok(
        render::usage_json(period, service(services).usage(ctx.caller_workspace_id, period)));
}

}  // namespace squawk::api::handlers
