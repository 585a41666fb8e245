#include "api/handlers/billing_handlers.hpp"

#include "api/server/validation.hpp"
#include "common/domain/billing/credits.hpp"
#include "common/domain/billing/wallet.hpp"
#include "common/domain/request_log/request_log_repository.hpp"
#include "common/domain/workspace/workspace_repository.hpp"

#include <array>

namespace squawk::api::handlers {
namespace {

constexpr std::array<std::string_view, 5> kPeriods{"today", "7d", "30d", "90d", "all"};

// The start of a usage period; "today" is the current UTC day, "all" has no start.
std::optional<time::TimePoint> period_start(const std::string& period, time::TimePoint now) {
    using namespace std::chrono;
    if (period == "all") return std::nullopt;
    if (period == "today")
        return time::TimePoint(duration_cast<microseconds>(floor<days>(now).time_since_epoch()));
    const int days_back = period == "7d" ? 7 : period == "30d" ? 30 : 90;
    return now - duration_cast<microseconds>(days(days_back));
}

// "ok" while calls can be paid; "low" under the auto-recharge threshold; "empty" at zero.
std::string payment_status(const billing::WalletState& w) {
    if (w.total_units() <= 0) return "empty";
    if (w.auto_recharge_enabled && w.total_units() < w.auto_recharge_below_units) return "low";
    return "ok";
}

}  // namespace

Reply get_billing(const RequestContext& ctx, Services& services) {
    const auto w = services.mysql.run(
        [&](db::Session& s) { return billing::Wallet::state(s, ctx.caller_workspace_id); });
    const auto reset_at = w.monthly_reset_at.value_or(billing::next_monthly_reset(time::now()));
    using workspace::format_credits;
    return Reply::ok(
        {{"currency", w.currency},
         {"balance",
          {{"total", format_credits(w.total_units())},
           {"purchased", format_credits(w.purchased_units)},
           {"monthly", format_credits(w.monthly_units)}}},
         {"cycle",
          {{"monthly_allowance", format_credits(services.config.billing.monthly_allowance_units)},
           {"monthly_reset_at", time::format_iso8601(reset_at)}}},
         {"auto_recharge",
          {{"enabled", w.auto_recharge_enabled},
           {"below", format_credits(w.auto_recharge_below_units)},
           {"amount", format_credits(w.auto_recharge_amount_units)},
           // Recharging needs a card on file; there is no payment provider to hold one.
           {"active", w.auto_recharge_enabled && w.card_on_file}}},
         {"payment", {{"card_on_file", w.card_on_file}, {"status", payment_status(w)}}}});
}

Reply get_usage(const RequestContext& ctx, Services& services) {
    Validator query(ctx.query);
    const std::string period = query.optional_enum("period", kPeriods).value_or("30d");
    query.finish();
    const auto now = time::now();
    const auto since = period_start(period, now);
    const auto [requests, units] = services.mysql.run([&](db::Session& s) {
        return std::make_pair(
            request_log::RequestLogRepository::count_since(s, ctx.caller_workspace_id, since),
            billing::Wallet::units_used(s, ctx.caller_workspace_id, since));
    });
    return Reply::ok({{"period", period},
                      {"from", since ? nlohmann::json(time::format_iso8601(*since)) : nullptr},
                      {"to", time::format_iso8601(now)},
                      {"total_requests", requests},
                      {"total_credits_used", billing::credits_as_number(units)}});
}

}  // namespace squawk::api::handlers
