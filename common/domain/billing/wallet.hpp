// The prepaid wallet: balances in units of 1/10,000 credit and the append-only ledger that
// records every change. Calls run on a Session the caller leased; reserve(), settle() and the
// refunds need the caller's transaction so the balance and its ledger row never disagree.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"

#include <map>
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

// What accepting a paid job reserves: `quantity` units of `operation` (an upper bound of what the
// job will make) at `unit_price_units` each, from the wallet of `workspace_id` (the caller's own,
// also when it acts inside a profile).
struct Reservation {
    long long workspace_id = 0;
    std::string operation;
    long long unit_price_units = 0;
    long long quantity = 0;
    std::string reference;  // the request's id
    long long total_units() const { return unit_price_units * quantity; }
};

// A job's reservation that is neither settled nor refunded, its job row locked.
struct OpenReservation {
    long long job_id = 0;
    std::string job_public_id;
    long long ledger_id = 0;
    long long workspace_id = 0;
    std::string operation;
    long long unit_price_units = 0;
    long long from_purchased = 0;  // what the reservation took from each balance
    long long from_monthly = 0;
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
    // Debits the reservation's total (the monthly allowance first, then purchased credit) and
    // records it as a "reserve" row, or returns nothing when the balance is too low; the row lock
    // makes concurrent reservations exact. Runs in the transaction that writes the job.
    static std::optional<Charge> reserve(db::Session& s, const Reservation& reservation);
    // The open reservation of job `job_id`, locking the job's row; nothing for a job that was
    // not paid for, or was settled or refunded already.
    static std::optional<OpenReservation> open_reservation(db::Session& s, long long job_id);
    // Charges price x `quantity` (never more than was reserved) and gives the rest back in one
    // "settle" row, in the transaction that records what the job made; returns the charge.
    static long long settle(db::Session& s, const OpenReservation& reservation, long long quantity);
    // Refunds the reservations of those jobs among `job_ids` that are failed and neither settled
    // nor refunded yet.
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
    // Credits spent since `since` (reservations and charges minus what settlements, reversals and
    // refunds gave back).
    static long long units_used(db::Session& s, long long workspace_id,
                                std::optional<time::TimePoint> since);
    // units_used split by UTC day: days since 1970-01-01 -> units, days without any absent.
    static std::map<long long, long long> units_used_per_day(db::Session& s, long long workspace_id,
                                                             std::optional<time::TimePoint> since);
};

}  // namespace squawk::billing
