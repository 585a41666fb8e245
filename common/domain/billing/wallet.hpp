// The prepaid wallet: balances in units of 1/10,000 credit and the append-only ledger that
// records every change. Calls run on a Session the caller leased; charge() and the refunds need
// the caller's transaction so the balance and its ledger row never disagree.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"

#include <optional>
#include <string>
#include <vector>

namespace squawk::billing {

// One debit: how much came from each balance, and what is left.
struct Charge {
    long long ledger_id = 0;
    long long workspace_id = 0;
    long long units = 0;
    long long balance_after = 0;
};

struct WalletState {
    long long purchased_units = 0;
    long long monthly_units = 0;
    std::string currency = "USD";
    std::optional<time::TimePoint> monthly_reset_at;
    bool auto_recharge_enabled = false;
    long long auto_recharge_below_units = 0;
    long long auto_recharge_amount_units = 0;
    bool card_on_file = false;
    long long total_units() const { return purchased_units + monthly_units; }
};

// The first instant of the month after `now`, UTC.
time::TimePoint next_monthly_reset(time::TimePoint now);

class Wallet {
  public:
    // Debits `units` (the monthly allowance first, then purchased credit) and records it, or
    // returns nothing when the balance is too low; the row lock makes concurrent charges exact.
    static std::optional<Charge> charge(db::Session& s, long long workspace_id,
                                        const std::string& operation, long long units,
                                        const std::string& reference);
    // Gives a charge back: `kind` is "reversal" (the call failed before its work began) or
    // "refund" (the work failed on our side, or the spec names a refund).
    static void give_back(db::Session& s, long long ledger_id, const std::string& kind,
                          const std::string& reference);
    // Refunds the charges of those jobs among `job_ids` that are failed and not yet refunded.
    static void refund_failed_jobs(db::Session& s, const std::vector<long long>& job_ids);
    // The same for jobs a client cancelled before they finished: the work was never delivered.
    static void refund_cancelled_jobs(db::Session& s, const std::vector<long long>& job_ids);
    // Adds purchased credit (operators; there is no payment provider); returns the new total.
    static long long credit(db::Session& s, long long workspace_id, long long units,
                            const std::string& reference);
    static WalletState state(db::Session& s, long long workspace_id);
    static bool set_auto_recharge(db::Session& s, long long workspace_id, bool enabled,
                                  long long below_units, long long amount_units);
    // Sets the monthly balance of every wallet whose reset is due (or never happened) to
    // `allowance_units` and schedules the next reset; returns how many wallets were reset.
    static int reset_monthly_allowances(db::Session& s, long long allowance_units, int limit);
    // Credits spent since `since` (charges minus reversals and refunds).
    static long long units_used(db::Session& s, long long workspace_id,
                                std::optional<time::TimePoint> since);
};

}  // namespace squawk::billing
