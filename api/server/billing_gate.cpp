#include "api/server/billing_gate.hpp"

#include "common/core/config/config.hpp"
#include "common/core/error/api_error.hpp"
#include "common/core/log/logger.hpp"
#include "common/domain/billing/wallet.hpp"
#include "common/domain/workspace/workspace_repository.hpp"

namespace squawk::api {

nlohmann::json charge_for_call(const Route& route, RequestContext& context, Services& services) {
    const std::string operation(route.billable_as);
    const auto& prices = services.config.billing.price_units;
    const auto found = prices.find(operation);
    const long long price = found == prices.end() ? 0 : found->second;
    if (context.is_test || price == 0) {
        const auto state = services.mysql.run(
            [&](db::Session& s) { return billing::Wallet::state(s, context.caller_workspace_id); });
        return {{"cost", workspace::format_credits(0)},
                {"balance_remaining", workspace::format_credits(state.total_units())}};
    }
    const auto charge = services.mysql.transaction([&](db::Session& s) {
        return billing::Wallet::charge(s, context.caller_workspace_id, operation, price,
                                       context.request_id);
    });
    if (!charge) {
        const auto state = services.mysql.run(
            [&](db::Session& s) { return billing::Wallet::state(s, context.caller_workspace_id); });
        throw ApiError(ErrorCode::InsufficientBalance, {},
                       {{"cost", workspace::format_credits(price)},
                        {"balance", workspace::format_credits(state.total_units())}});
    }
    context.charge_ledger_id = charge->ledger_id;
    return {{"cost", workspace::format_credits(charge->units)},
            {"balance_remaining", workspace::format_credits(charge->balance_after)}};
}

void reverse_charge(const RequestContext& context, Services& services) {
    if (!context.charge_ledger_id) return;
    try {
        services.mysql.transaction([&](db::Session& s) {
            billing::Wallet::give_back(s, *context.charge_ledger_id, "reversal",
                                       context.request_id);
        });
    } catch (const std::exception& e) {
        log::error("could not reverse the charge of a failed call",
                   {{"request_id", context.request_id},
                    {"ledger_id", *context.charge_ledger_id},
                    {"error", e.what()}});
    }
}

}  // namespace squawk::api
