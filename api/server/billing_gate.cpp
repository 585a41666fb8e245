#include "api/server/billing_gate.hpp"

#include "common/core/config/config.hpp"
#include "common/domain/workspace/workspace_repository.hpp"

namespace squawk::api {

std::optional<billing::Reservation> reservation_for(const RequestContext& context,
                                                    const Services& services, long long quantity) {
    const auto& prices = services.config.billing.price_units;
    const auto found = prices.find(std::string(context.billable_as));
    const long long price = found == prices.end() ? 0 : found->second;
    if (context.is_test || price == 0) return std::nullopt;
    billing::Reservation r;
    r.workspace_id = context.caller_workspace_id;
    r.operation = std::string(context.billable_as);
    r.unit_price_units = price;
    r.quantity = quantity;
    r.reference = context.request_id;
    return r;
}

nlohmann::json usage_json(const RequestContext& context, Services& services,
                          const std::optional<long long>& reserved_units) {
    const auto state = services.mysql.run(
        [&](db::Session& s) { return billing::Wallet::state(s, context.caller_workspace_id); });
    return {{"cost", workspace::format_credits(reserved_units.value_or(0))},
            {"balance_remaining", workspace::format_credits(state.total_units())}};
}

}  // namespace squawk::api
