#include "common/domain/billing/billing_service.hpp"

#include "common/domain/request_log/request_log_repository.hpp"

#include <algorithm>

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

long long day_number(time::TimePoint t) {
    return std::chrono::floor<std::chrono::days>(t).time_since_epoch().count();
}

long long on_day(const std::map<long long, long long>& per_day, long long day) {
    const auto found = per_day.find(day);
    return found == per_day.end() ? 0 : found->second;
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

DailyUsage BillingService::daily_usage(long long workspace_id, const std::string& period) {
    DailyUsage d;
    d.total.to = time::now();
    d.total.from = period_start(period, d.total.to);
    std::map<long long, long long> requests;
    std::map<long long, long long> units;
    mysql_.run([&](db::Session& s) {
        requests = request_log::RequestLogRepository::count_per_day(s, workspace_id, d.total.from);
        units = Wallet::units_used_per_day(s, workspace_id, d.total.from);
    });
    long long first = day_number(d.total.from.value_or(d.total.to));
    long long last = day_number(d.total.to);
    // Rows stamped by another process's clock a moment ahead still count, as in usage().
    for (const auto* per_day : {&requests, &units})
        if (!per_day->empty()) {
            first = std::min(first, per_day->begin()->first);
            last = std::max(last, per_day->rbegin()->first);
        }
    for (long long day = first; day <= last; ++day) {
        const UsageDay u{std::chrono::sys_days(std::chrono::days(day)), on_day(requests, day),
                         on_day(units, day)};
        d.total.requests += u.requests;
        d.total.units_used += u.units_used;
        d.days.push_back(u);
    }
    return d;
}

}  // namespace squawk::billing
