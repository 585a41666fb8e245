#include "common/domain/social/account_repository.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/db/sql_text.hpp"
#include "common/core/text/concat.hpp"
#include "common/domain/social/post_status.hpp"

namespace squawk::social {
namespace {

using db::time_param;

// Every read selects the columns read_account() expects, in its order; whole literals because
// GCC 12 warns (-Warray-bounds) on chains of std::string concatenation.
constexpr const char* kFindAccount =
    "SELECT id, public_id, workspace_id, platform, status, display_name, external_id,"
    " external_handle, credentials_enc, token_valid, last_error, last_checked_at, created_at,"
    " COALESCE(updated_at, created_at), sandbox, reconnect_reason FROM social_accounts"
    " WHERE public_id = ? AND workspace_id = ? AND status = ? AND sandbox IN (0, ?)";
constexpr const char* kFindAccountForUpdate =
    "SELECT id, public_id, workspace_id, platform, status, display_name, external_id,"
    " external_handle, credentials_enc, token_valid, last_error, last_checked_at, created_at,"
    " COALESCE(updated_at, created_at), sandbox, reconnect_reason FROM social_accounts"
    " WHERE public_id = ? AND workspace_id = ? AND status = ? AND sandbox IN (0, ?) FOR UPDATE";
constexpr const char* kFindIdentityForUpdate =
    "SELECT id, public_id, workspace_id, platform, status, display_name, external_id,"
    " external_handle, credentials_enc, token_valid, last_error, last_checked_at, created_at,"
    " COALESCE(updated_at, created_at), sandbox, reconnect_reason FROM social_accounts"
    " WHERE workspace_id = ? AND platform = ? AND live_identity = ? AND sandbox = 0 FOR UPDATE";
constexpr const char* kAccountColumns =
    "SELECT id, public_id, workspace_id, platform, status, display_name, external_id,"
    " external_handle, credentials_enc, token_valid, last_error, last_checked_at, created_at,"
    " COALESCE(updated_at, created_at), sandbox, reconnect_reason FROM social_accounts";
// A claim's condition, its order, and the same condition with the order for the rows it locks.
constexpr const char* kRefreshDue =
    " status = ? AND token_valid = 1 AND sandbox = 0 AND token_expires_at < ?"
    " AND (token_refresh_until IS NULL OR token_refresh_until < ?) ORDER BY token_expires_at";
constexpr const char* kMetricsDue =
    " sandbox = 0 AND status = ? AND token_valid = 1"
    " AND (metrics_due_at IS NULL OR metrics_due_at < ?) ORDER BY metrics_due_at";
constexpr const char* kListPage =
    "SELECT id, public_id, workspace_id, platform, status, display_name, external_id,"
    " external_handle, credentials_enc, token_valid, last_error, last_checked_at, created_at,"
    " COALESCE(updated_at, created_at), sandbox, reconnect_reason FROM social_accounts"
    " WHERE workspace_id = ? AND status = ? AND sandbox IN (0, ?) AND public_id IS NOT NULL"
    " AND (? = '' OR platform = ?) ORDER BY id DESC LIMIT ? OFFSET ?";

Account read_account(const db::Row& r) {
    Account a;
    a.id = r.integer(0);
    a.public_id = r.optional_text(1).value_or("");
    a.workspace_id = r.integer(2);
    a.platform = r.text(3);
    a.status = stored_value<AccountStatus>(r.text(4));
    a.identity.display_name = r.optional_text(5).value_or("");
    a.identity.external_id = r.optional_text(6).value_or("");
    a.identity.handle = r.optional_text(7).value_or("");
    a.credentials_sealed = r.optional_text(8).value_or("");
    a.token_valid = r.integer(9) != 0;
    a.last_error = r.optional_text(10);
    a.last_checked_at = db::optional_time_column(r, 11);
    a.created_at = db::time_column(r, 12);
    a.updated_at = db::time_column(r, 13);
    a.sandbox = r.integer(14) != 0;
    a.reconnect_reason = r.optional_text(15);
    return a;
}

Account insert_row(db::Session& s, long long workspace_id, const std::string& platform,
                   const Identity& identity, const std::string& credentials_sealed, bool sandbox) {
    Account a;
    a.public_id = "acc_" + crypto::hex(crypto::random_bytes(12));
    a.workspace_id = workspace_id;
    a.platform = platform;
    a.status = AccountStatus::connected;
    a.identity = identity;
    a.credentials_sealed = credentials_sealed;
    a.created_at = a.updated_at = time::now();
    a.last_checked_at = a.created_at;
    a.sandbox = sandbox;
    a.id = s.insert(
        "INSERT INTO social_accounts (public_id, workspace_id, platform, status, display_name,"
        " external_id, external_handle, credentials_enc, token_valid, last_checked_at,"
        " created_at, updated_at, sandbox) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)",
        {a.public_id, workspace_id, platform, name_of(a.status), identity.display_name,
         identity.external_id, identity.handle, credentials_sealed, time_param(a.created_at),
         time_param(a.created_at), time_param(a.updated_at),
         static_cast<long long>(sandbox ? 1 : 0)});
    return a;
}

}  // namespace

Account AccountRepository::insert(db::Session& s, long long workspace_id,
                                  const std::string& platform, const Identity& identity,
                                  const std::string& credentials_sealed) {
    return insert_row(s, workspace_id, platform, identity, credentials_sealed, false);
}

Account AccountRepository::insert_sandbox(db::Session& s, long long workspace_id,
                                          const std::string& platform, const Identity& identity,
                                          const std::string& credentials_sealed) {
    return insert_row(s, workspace_id, platform, identity, credentials_sealed, true);
}

std::optional<Account> AccountRepository::find(db::Session& s, long long workspace_id,
                                               AccountView view, const std::string& public_id,
                                               bool for_update) {
    auto row = s.query_one(
        for_update ? kFindAccountForUpdate : kFindAccount,
        {public_id, workspace_id, name_of(AccountStatus::connected), sandbox_param(view)});
    if (!row) return std::nullopt;
    return read_account(*row);
}

std::optional<Account> AccountRepository::find_identity_for_update(db::Session& s,
                                                                   long long workspace_id,
                                                                   const std::string& platform,
                                                                   const std::string& external_id) {
    auto row = s.query_one(kFindIdentityForUpdate, {workspace_id, platform, external_id});
    if (!row) return std::nullopt;
    return read_account(*row);
}

void AccountRepository::reconnect(db::Session& s, long long id, const Identity& identity,
                                  const std::string& credentials_sealed) {
    const auto now = time_param(time::now());
    s.execute(
        "UPDATE social_accounts SET display_name = ?, external_handle = ?, credentials_enc = ?,"
        " token_valid = 1, last_error = NULL, reconnect_reason = NULL, last_checked_at = ?,"
        " updated_at = ? WHERE id = ?",
        {identity.display_name, identity.handle, credentials_sealed, now, now, id});
}

void AccountRepository::set_token_expiry(db::Session& s, long long id,
                                         std::optional<time::TimePoint> expires_at) {
    s.execute(
        "UPDATE social_accounts SET token_expires_at = ?, token_refresh_until = NULL"
        " WHERE id = ?",
        {expires_at ? time_param(*expires_at) : db::Param(nullptr), id});
}

namespace {

// Up to `limit` accounts meeting `due` (a condition and its order, with `params`), locked: read
// plainly first, then locked by primary key with the condition checked again. A locking read of
// the condition itself would also lock the row that ends its range, one the claim does not want,
// and the other claim's SKIP LOCKED would pass over that row: the token refresher, running on the
// same period, hid an account due for its metrics reading pass after pass.
std::vector<Account> lock_due(db::Session& s, const char* due, db::Params params, int limit) {
    auto first = params;
    first.push_back(static_cast<long long>(limit));
    db::Params ids;
    for (const auto& r :
         s.query(text::concat({"SELECT id FROM social_accounts WHERE", due, " LIMIT ?"}), first))
        ids.push_back(r.integer(0));
    if (ids.empty()) return {};
    const auto count = ids.size();
    ids.insert(ids.end(), params.begin(), params.end());
    std::vector<Account> locked;
    for (const auto& r :
         s.query(text::concat({kAccountColumns, " WHERE id IN (", db::placeholders(count), ") AND",
                               due, " FOR UPDATE SKIP LOCKED"}),
                 ids))
        locked.push_back(read_account(r));
    return locked;
}

}  // namespace

std::vector<Account> AccountRepository::lease_due_refreshes(db::Session& s, time::TimePoint before,
                                                            time::TimePoint lease_until,
                                                            int limit) {
    const auto due = lock_due(
        s, kRefreshDue,
        {name_of(AccountStatus::connected), time_param(before), time_param(time::now())}, limit);
    for (const auto& a : due)
        s.execute("UPDATE social_accounts SET token_refresh_until = ? WHERE id = ?",
                  {time_param(lease_until), a.id});
    return due;
}

std::vector<Account> AccountRepository::lease_due_metrics(db::Session& s, time::TimePoint now,
                                                          time::TimePoint lease_until, int limit) {
    const auto due =
        lock_due(s, kMetricsDue, {name_of(AccountStatus::connected), time_param(now)}, limit);
    for (const auto& a : due)
        s.execute("UPDATE social_accounts SET metrics_due_at = ? WHERE id = ?",
                  {time_param(lease_until), a.id});
    return due;
}

void AccountRepository::record_refresh(db::Session& s, long long id,
                                       const std::string& credentials_sealed,
                                       std::optional<time::TimePoint> expires_at) {
    s.execute(
        "UPDATE social_accounts SET credentials_enc = ?, token_expires_at = ?,"
        " token_refresh_until = NULL, token_valid = 1, last_error = NULL, updated_at = ?"
        " WHERE id = ?",
        {credentials_sealed, expires_at ? time_param(*expires_at) : db::Param(nullptr),
         time_param(time::now()), id});
}

// An empty platform matches every row; the statements' shapes never depend on input.
std::vector<Account> AccountRepository::connected(db::Session& s, long long workspace_id,
                                                  AccountView view, const std::string& platform,
                                                  long long offset, int limit) {
    std::vector<Account> out;
    for (const auto& r :
         s.query(kListPage, {workspace_id, name_of(AccountStatus::connected), sandbox_param(view),
                             platform, platform, static_cast<long long>(limit), offset}))
        out.push_back(read_account(r));
    return out;
}

AccountPage AccountRepository::list(db::Session& s, long long workspace_id, AccountView view,
                                    const std::string& platform, long long offset, int limit) {
    AccountPage page;
    page.total = s.query_one(
                      "SELECT COUNT(*) FROM social_accounts WHERE workspace_id = ?"
                      " AND status = ? AND sandbox IN (0, ?) AND public_id IS NOT NULL"
                      " AND (? = '' OR platform = ?)",
                      {workspace_id, name_of(AccountStatus::connected), sandbox_param(view),
                       platform, platform})
                     ->integer(0);
    page.items = connected(s, workspace_id, view, platform, offset, limit);
    return page;
}

std::vector<std::pair<std::string, long long>> AccountRepository::resolve(
    db::Session& s, long long workspace_id, AccountView view,
    const std::vector<std::string>& public_ids) {
    std::vector<std::pair<std::string, long long>> out;
    if (public_ids.empty()) return out;
    db::Params params{workspace_id, name_of(AccountStatus::connected), sandbox_param(view)};
    for (const auto& id : public_ids) params.emplace_back(id);
    for (const auto& r : s.query("SELECT public_id, id FROM social_accounts WHERE workspace_id = ?"
                                 " AND status = ? AND sandbox IN (0, ?) AND public_id IN (" +
                                     db::placeholders(public_ids.size()) + ") FOR UPDATE",
                                 params))
        out.emplace_back(r.text(0), r.integer(1));
    return out;
}

std::vector<std::string> AccountRepository::to_reconnect(db::Session& s,
                                                         const std::vector<long long>& ids) {
    std::vector<std::string> out;
    if (ids.empty()) return out;
    db::Params params;
    for (const auto id : ids) params.emplace_back(id);
    for (const auto& r : s.query("SELECT public_id FROM social_accounts WHERE token_valid = 0"
                                 " AND id IN (" +
                                     db::placeholders(ids.size()) + ") ORDER BY id",
                                 params))
        out.push_back(r.text(0));
    return out;
}

void AccountRepository::rename(db::Session& s, long long id, const std::string& display_name) {
    s.execute("UPDATE social_accounts SET display_name = ?, updated_at = ? WHERE id = ?",
              {display_name, time_param(time::now()), id});
}

void AccountRepository::record_health(db::Session& s, long long id, bool token_valid,
                                      const std::optional<std::string>& last_error) {
    const auto now = time_param(time::now());
    s.execute(
        "UPDATE social_accounts SET token_valid = ?, last_error = ?, last_checked_at = ?,"
        " updated_at = ? WHERE id = ? AND status = ?",
        {static_cast<long long>(token_valid ? 1 : 0),
         last_error ? db::Param(last_error->substr(0, 1000)) : db::Param(nullptr), now, now, id,
         name_of(AccountStatus::connected)});
}

void AccountRepository::require_reconnect(db::Session& s, long long id, const std::string& reason) {
    const auto now = time_param(time::now());
    const auto stored = reason.substr(0, 1000);
    s.execute(
        "UPDATE social_accounts SET token_valid = 0, last_error = ?, reconnect_reason = ?,"
        " last_checked_at = ?, updated_at = ? WHERE id = ? AND status = ?",
        {stored, stored, now, now, id, name_of(AccountStatus::connected)});
}

void AccountRepository::move(db::Session& s, long long id, long long target_workspace_id) {
    s.execute("UPDATE social_accounts SET workspace_id = ?, updated_at = ? WHERE id = ?",
              {target_workspace_id, time_param(time::now()), id});
    // Groups belong to the workspace the account leaves.
    s.execute("DELETE FROM account_group_members WHERE account_id = ?", {id});
}

void AccountRepository::disconnect(db::Session& s, long long id) {
    s.execute(
        "UPDATE social_accounts SET status = ?, credentials_enc = NULL, updated_at = ? WHERE id = "
        "?",
        {name_of(AccountStatus::disconnected), time_param(time::now()), id});
    s.execute("DELETE FROM account_group_members WHERE account_id = ?", {id});
}

bool has_pending_posts(db::Session& s, long long account_id) {
    return s.query_one(
                "SELECT EXISTS (SELECT 1 FROM social_post_targets WHERE account_id = ?"
                " AND status IN (?, ?, ?))",
                {account_id, name_of(TargetStatus::scheduled), name_of(TargetStatus::queued),
                 name_of(TargetStatus::publishing)})
               ->integer(0) != 0;
}

}  // namespace squawk::social
