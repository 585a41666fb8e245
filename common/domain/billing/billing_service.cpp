#include "common/domain/billing/billing_service.hpp"

#include "common/domain/request_log/request_log_repository.hpp"

namespace squawk::billing {
namespace {

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
std::string payment_status(const WalletState& w) {
    if (w.total_units() <= 0) return "empty";
    if (w.auto_recharge_enabled && w.total_units() < w.auto_recharge_below_units) return "low";
    return "ok";
}

}  // namespace

BillingOverview BillingService::overview(long long workspace_id) {
    BillingOverview o;
    o.wallet = mysql_.run([&](db::Session& s) { return Wallet::state(s, workspace_id); });
    o.monthly_allowance_units = settings_.monthly_allowance_units;
    o.monthly_reset_at = o.wallet.monthly_reset_at.value_or(next_monthly_reset(time::now()));
    o.auto_recharge_active = o.wallet.auto_recharge_enabled && o.wallet.card_on_file;
    o.payment_status = payment_status(o.wallet);
    for (const auto& [operation, price] : settings_.price_units)
        o.prices.push_back({operation, price, std::string(config::price_unit(operation))});
    return o;
}

workspace::Balance BillingService::balance(long long workspace_id) {
    return mysql_.run(
        [&](db::Session& s) { return workspace::WorkspaceRepository::balance(s, workspace_id); });
}

Usage BillingService::usage(long long workspace_id, const std::string& period) {
    Usage u;
    u.to = time::now();
    u.from = period_start(period, u.to);
    mysql_.run([&](db::Session& s) {
        u.requests = request_log::RequestLogRepository::count_since(s, workspace_id, u.from);
        u.units_used = Wallet::units_used(s, workspace_id, u.from);
    });
    return u;
}

}  // namespace squawk::billing
