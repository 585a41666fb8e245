#include "common/domain/billing/wallet.hpp"

#include "common/core/db/sql_text.hpp"
#include "common/domain/jobs/job_status.hpp"

#include <algorithm>

namespace squawk::billing {
namespace {

struct Balances {
    long long purchased = 0;
    long long monthly = 0;
};

std::optional<Balances> lock_wallet(db::Session& s, long long workspace_id) {
    auto row = s.query_one(
        "SELECT purchased_units, monthly_units FROM wallets"
        " WHERE workspace_id = ? FOR UPDATE",
        {workspace_id});
    if (!row) return std::nullopt;
    return Balances{row->integer(0), row->integer(1)};
}

// How many units at what price a ledger row is about (reservations and settlements).
struct Priced {
    long long quantity = 0;
    long long unit_price_units = 0;
};

// Applies the deltas to a locked wallet and appends the ledger row; returns the row's id.
long long apply(db::Session& s, long long workspace_id, const Balances& before,
                const std::string& kind, const std::optional<std::string>& operation,
                long long purchased_delta, long long monthly_delta, const std::string& reference,
                const std::optional<Priced>& priced = std::nullopt) {
    const auto now = db::time_param(time::now());
    const Balances after{before.purchased + purchased_delta, before.monthly + monthly_delta};
    s.execute(
        "UPDATE wallets SET purchased_units = ?, monthly_units = ?, updated_at = ?"
        " WHERE workspace_id = ?",
        {after.purchased, after.monthly, now, workspace_id});
    return s.insert(
        "INSERT INTO wallet_ledger (workspace_id, kind, operation, purchased_delta,"
        " monthly_delta, purchased_after, monthly_after, reference, quantity, unit_price_units,"
        " created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        {workspace_id, kind, db::optional_param(operation), purchased_delta, monthly_delta,
         after.purchased, after.monthly,
         reference.empty() ? db::Param(nullptr) : db::Param(reference.substr(0, 100)),
         priced ? db::Param(priced->quantity) : db::Param(nullptr),
         priced ? db::Param(priced->unit_price_units) : db::Param(nullptr), now});
}

// Gives a reservation (or a charge of an older build) back whole: the work failed on our side or
// was cancelled before it was delivered.
void refund(db::Session& s, long long ledger_id, const std::string& reference) {
    auto row = s.query_one(
        "SELECT workspace_id, operation, purchased_delta, monthly_delta"
        " FROM wallet_ledger WHERE id = ? AND kind IN ('charge', 'reserve')",
        {ledger_id});
    if (!row) return;
    const long long workspace_id = row->integer(0);
    const auto before = lock_wallet(s, workspace_id);
    if (!before) return;
    apply(s, workspace_id, *before, "refund", row->optional_text(1), -row->integer(2),
          -row->integer(3), reference);
}

}  // namespace

time::TimePoint next_monthly_reset(time::TimePoint now) {
    using namespace std::chrono;
    const year_month_day today{floor<days>(now)};
    const year_month next = year_month{today.year(), today.month()} + months{1};
    return time::TimePoint(duration_cast<microseconds>(sys_days{next / 1}.time_since_epoch()));
}

std::optional<Charge> Wallet::reserve(db::Session& s, const Reservation& reservation) {
    const long long units = reservation.total_units();
    const auto before = lock_wallet(s, reservation.workspace_id);
    if (!before || before->purchased + before->monthly < units) return std::nullopt;
    const long long from_monthly = std::min(before->monthly, units);
    Charge c;
    c.workspace_id = reservation.workspace_id;
    c.units = units;
    c.ledger_id = apply(s, reservation.workspace_id, *before, "reserve", reservation.operation,
                        -(units - from_monthly), -from_monthly, reservation.reference,
                        Priced{reservation.quantity, reservation.unit_price_units});
    c.balance_after = before->purchased + before->monthly - units;
    return c;
}

std::optional<OpenReservation> Wallet::open_reservation(db::Session& s, long long job_id) {
    const auto row = s.query_one(
        "SELECT j.public_id, l.id, l.workspace_id, l.operation, l.purchased_delta,"
        " l.monthly_delta, l.unit_price_units FROM jobs j"
        " JOIN wallet_ledger l ON l.id = j.charge_ledger_id AND l.kind = 'reserve'"
        " WHERE j.id = ? AND j.refunded = 0 AND j.charged_units IS NULL FOR UPDATE",
        {job_id});
    if (!row) return std::nullopt;
    OpenReservation r;
    r.job_id = job_id;
    r.job_public_id = row->text(0);
    r.ledger_id = row->integer(1);
    r.workspace_id = row->integer(2);
    r.operation = row->optional_text(3).value_or("");
    r.from_purchased = -row->integer(4);
    r.from_monthly = -row->integer(5);
    r.unit_price_units = row->optional_integer(6).value_or(0);
    return r;
}

long long Wallet::settle(db::Session& s, const OpenReservation& reservation, long long quantity) {
    const long long reserved = reservation.from_purchased + reservation.from_monthly;
    const long long charged = std::min(reserved, reservation.unit_price_units * quantity);
    // The reservation took the allowance first, so what is kept comes from it first too.
    const long long back = reserved - charged;
    const long long to_purchased = std::min(back, reservation.from_purchased);
    const auto before = lock_wallet(s, reservation.workspace_id);
    if (before)
        apply(s, reservation.workspace_id, *before, "settle", reservation.operation, to_purchased,
              back - to_purchased, reservation.job_public_id,
              Priced{quantity, reservation.unit_price_units});
    s.execute("UPDATE jobs SET charged_units = ? WHERE id = ?", {charged, reservation.job_id});
    return charged;
}

namespace {

// Refunds the reservations of those jobs among `job_ids` that ended in `status` and were neither
// settled (a settled job was delivered: nothing more comes back) nor refunded.
void refund_jobs_ended(db::Session& s, const std::vector<long long>& job_ids,
                       jobs::JobStatus status) {
    if (job_ids.empty()) return;
    db::Params params(job_ids.begin(), job_ids.end());
    params.emplace_back(name_of(status));
    // Through the primary key only: an index on status would lock every such job.
    const auto rows = s.query(
        "SELECT id, charge_ledger_id, public_id FROM jobs FORCE INDEX (PRIMARY)"
        " WHERE id IN (" +
            db::placeholders(job_ids.size()) +
            ") AND status = ? AND refunded = 0 AND charged_units IS NULL"
            " AND charge_ledger_id IS NOT NULL FOR UPDATE",
        params);
    for (const auto& r : rows) {
        if (s.execute("UPDATE jobs SET refunded = 1 WHERE id = ? AND refunded = 0",
                      {r.integer(0)}) == 0)
            continue;
        refund(s, r.integer(1), r.text(2));
    }
}

}  // namespace

void Wallet::refund_failed_jobs(db::Session& s, const std::vector<long long>& job_ids) {
    refund_jobs_ended(s, job_ids, jobs::JobStatus::failed);
}

void Wallet::refund_cancelled_jobs(db::Session& s, const std::vector<long long>& job_ids) {
    refund_jobs_ended(s, job_ids, jobs::JobStatus::cancelled);
}

long long Wallet::credit(db::Session& s, long long workspace_id, long long units,
                         const std::string& reference) {
    const auto before = lock_wallet(s, workspace_id);
    if (!before) throw std::runtime_error("workspace has no wallet");
    apply(s, workspace_id, *before, "credit", std::nullopt, units, 0, reference);
    return before->purchased + before->monthly + units;
}

WalletState Wallet::state(db::Session& s, long long workspace_id) {
    WalletState w;
    auto row = s.query_one(
        "SELECT purchased_units, monthly_units, currency, monthly_reset_at,"
        " auto_recharge_enabled, auto_recharge_below_units,"
        " auto_recharge_amount_units, card_on_file FROM wallets"
        " WHERE workspace_id = ?",
        {workspace_id});
    if (!row) return w;
    w.purchased_units = row->integer(0);
    w.monthly_units = row->integer(1);
    w.currency = row->text(2);
    w.monthly_reset_at = db::optional_time_column(*row, 3);
    w.auto_recharge_enabled = row->integer(4) != 0;
    w.auto_recharge_below_units = row->integer(5);
    w.auto_recharge_amount_units = row->integer(6);
    w.card_on_file = row->integer(7) != 0;
    return w;
}

bool Wallet::set_auto_recharge(db::Session& s, long long workspace_id, bool enabled,
                               long long below_units, long long amount_units) {
    return s.execute(
               "UPDATE wallets SET auto_recharge_enabled = ?, auto_recharge_below_units = ?,"
               " auto_recharge_amount_units = ?, updated_at = ? WHERE workspace_id = ?",
               {enabled, below_units, amount_units, db::time_param(time::now()), workspace_id}) > 0;
}

int Wallet::reset_monthly_allowances(db::Session& s, long long allowance_units, int limit) {
    const auto now = time::now();
    const auto due = s.query(
        "SELECT workspace_id, purchased_units, monthly_units FROM wallets"
        " WHERE monthly_reset_at IS NULL OR monthly_reset_at <= ?"
        " ORDER BY workspace_id LIMIT ? FOR UPDATE",
        {db::time_param(now), static_cast<long long>(limit)});
    for (const auto& r : due) {
        const long long workspace_id = r.integer(0);
        const Balances before{r.integer(1), r.integer(2)};
        apply(s, workspace_id, before, "monthly_reset", std::nullopt, 0,
              allowance_units - before.monthly, "");
        s.execute("UPDATE wallets SET monthly_reset_at = ? WHERE workspace_id = ?",
                  {db::time_param(next_monthly_reset(now)), workspace_id});
    }
    return static_cast<int>(due.size());
}

long long Wallet::units_used(db::Session& s, long long workspace_id,
                             std::optional<time::TimePoint> since) {
    const auto row = s.query_one(
        "SELECT COALESCE(-SUM(purchased_delta + monthly_delta), 0) FROM wallet_ledger"
        " WHERE workspace_id = ?"
        " AND kind IN ('charge', 'reserve', 'settle', 'reversal', 'refund') AND created_at >= ?",
        {workspace_id, db::time_param(since.value_or(time::TimePoint{}))});
    return row ? row->integer(0) : 0;
}

std::map<long long, long long> Wallet::units_used_per_day(db::Session& s, long long workspace_id,
                                                          std::optional<time::TimePoint> since) {
    std::map<long long, long long> per_day;
    for (const auto& row :
         s.query("SELECT DATEDIFF(created_at, '1970-01-01'), -SUM(purchased_delta + monthly_delta)"
                 " FROM wallet_ledger WHERE workspace_id = ?"
                 " AND kind IN ('charge', 'reserve', 'settle', 'reversal', 'refund')"
                 " AND created_at >= ? GROUP BY 1",
                 {workspace_id, db::time_param(since.value_or(time::TimePoint{}))}))
        per_day[row.integer(0)] = row.integer(1);
    return per_day;
}

}  // namespace squawk::billing
