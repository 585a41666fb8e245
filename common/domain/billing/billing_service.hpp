// What the billing routes read (spec 2.5): the wallet with its cycle, auto-recharge and payment
// state, the balance alone, and usage over a period. Returns domain types.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/billing/billing_settings.hpp"
#include "common/domain/billing/wallet.hpp"
#include "common/domain/workspace/workspace_repository.hpp"

#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::billing {

// What usage may be summed over: the current UTC day, the last 7, 30 or 90 days, or everything.
inline constexpr std::array<std::string_view, 5> kUsagePeriods{"today", "7d", "30d", "90d", "all"};

// The price of one unit of a billable operation, and what the unit is (config::price_unit).
struct OperationPrice {
    std::string operation;
    long long unit_price_units = 0;
    std::string unit;
};

struct BillingOverview {
    WalletState wallet;
    std::vector<OperationPrice> prices;
    long long monthly_allowance_units = 0;
    time::TimePoint monthly_reset_at;
    // Recharging needs a card on file; there is no payment provider to hold one.
    bool auto_recharge_active = false;
    std::string payment_status;  // ok, low (under the auto-recharge threshold), empty
};

struct Usage {
    std::optional<time::TimePoint> from;  // absent for "all"
    time::TimePoint to;
    long long requests = 0;
    long long units_used = 0;
};

struct UsageDay {
    std::chrono::sys_days day;  // UTC
    long long requests = 0;
    long long units_used = 0;
};

// A usage period day by day, for a chart; `total` is the sum of `days`.
struct DailyUsage {
    Usage total;
    // Every UTC day from the period's first (for "all", the first with any usage) to today,
    // oldest first, days without usage included as zeros.
    std::vector<UsageDay> days;
};

class BillingService {
  public:
    BillingService(db::MysqlPool& mysql, const config::BillingSettings& settings)
        : mysql_(mysql), settings_(settings) {}

    BillingOverview overview(long long workspace_id);
    workspace::Balance balance(long long workspace_id);
    // `period`: today (the current UTC day), 7d, 30d, 90d or all.
    Usage usage(long long workspace_id, const std::string& period);
    DailyUsage daily_usage(long long workspace_id, const std::string& period);

  private:
    db::MysqlPool& mysql_;
    const config::BillingSettings& settings_;
};

}  // namespace squawk::billing
