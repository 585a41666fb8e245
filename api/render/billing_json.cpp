#include "api/render/billing_json.hpp"

#include "api/render/optional_json.hpp"
#include "common/domain/billing/credits.hpp"

namespace squawk::api::render {

using workspace::format_credits;

nlohmann::json billing_json(const billing::BillingOverview& o) {
    const auto& w = o.wallet;
    nlohmann::json prices = nlohmann::json::object();
    for (const auto& p : o.prices)
        prices[p.operation] = {{"price", format_credits(p.unit_price_units)}, {"per", p.unit}};
    return {{"currency", w.currency},
            {"prices", std::move(prices)},
            {"balance",
             {{"total", format_credits(w.total_units())},
              {"purchased", format_credits(w.purchased_units)},
              {"monthly", format_credits(w.monthly_units)}}},
            {"cycle",
             {{"monthly_allowance", format_credits(o.monthly_allowance_units)},
              {"monthly_reset_at", time::format_iso8601(o.monthly_reset_at)}}},
            {"auto_recharge",
             {{"enabled", w.auto_recharge_enabled},
              {"below", format_credits(w.auto_recharge_below_units)},
              {"amount", format_credits(w.auto_recharge_amount_units)},
              {"active", o.auto_recharge_active}}},
            {"payment", {{"card_on_file", w.card_on_file}, {"status", o.payment_status}}}};
}

nlohmann::json balance_json(const workspace::Balance& b) {
    return {{"currency", b.currency},
            {"balance",
             {{"total", format_credits(b.total_units())},
              {"purchased", format_credits(b.purchased_units)},
              {"monthly", format_credits(b.monthly_units)}}}};
}

nlohmann::json usage_json(const std::string& period, const billing::Usage& u) {
    return {{"period", period},
            {"from", optional_time(u.from)},
            {"to", time::format_iso8601(u.to)},
            {"total_requests", u.requests},
            {"total_credits_used", billing::credits_as_number(u.units_used)}};
}

}  // namespace squawk::api::render
