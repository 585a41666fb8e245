#include "scheduler/monthly_allowance.hpp"

#include "common/core/log/logger.hpp"
#include "common/domain/billing/wallet.hpp"

namespace squawk::scheduler {
namespace {
constexpr int kAllowanceBatch = 500;
}  // namespace

int MonthlyAllowance::run_once() {
    int total = 0;
    for (;;) {
        const int n = mysql_.transaction([&](db::Session& s) {
            return billing::Wallet::reset_monthly_allowances(s, allowance_units_, kAllowanceBatch);
        });
        total += n;
        if (n < kAllowanceBatch) break;
    }
    if (total > 0) log::info("monthly allowances reset", {{"wallets", total}});
    return total;
}

}  // namespace squawk::scheduler
