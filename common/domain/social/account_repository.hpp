// SQL for connected social accounts: tenant-scoped reads, the connect insert (one live row per
// external identity and workspace), health, rename, move and disconnect. Credentials stay sealed.
// Every read a key makes names its AccountView: sandbox accounts exist for test keys only.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/social/account_status.hpp"
#include "common/domain/social/connector.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace squawk::social {

// Which of a workspace's accounts a caller sees. A live key sees the accounts connected on their
// platforms; a test key sees those and the workspace's sandbox accounts, which no platform
// knows. Background work reads with `live`: nothing is ever sent for a sandbox account.
enum class AccountView { live, test };

constexpr AccountView account_view(bool is_test) {
    return is_test ? AccountView::test : AccountView::live;
}

// What a view binds in SQL that filters accounts with "sandbox IN (0, ?)".
constexpr long long sandbox_param(AccountView view) {
    return view == AccountView::test ? 1 : 0;
}

struct Account {
    long long id = 0;
    std::string public_id;
    long long workspace_id = 0;
    std::string platform;
    AccountStatus status = AccountStatus::connected;
    Identity identity;
    std::string credentials_sealed;
    bool token_valid = true;
    std::optional<std::string> last_error;
    std::optional<time::TimePoint> last_checked_at;
    time::TimePoint created_at;
    time::TimePoint updated_at;
    // Connected by a test key without the platform: no platform call is ever made for it.
    bool sandbox = false;
    // Set when only connecting the account again can mend it (a refused token refresh, a missing
    // permission); a health check that passes leaves it, a reconnect clears it.
    std::optional<std::string> reconnect_reason;
};

struct AccountPage {
    std::vector<Account> items;
    long long total = 0;
};

class AccountRepository {
  public:
    // Throws db::DatabaseError with is_duplicate_key() when the identity is already connected.
    static Account insert(db::Session& s, long long workspace_id, const std::string& platform,
                          const Identity& identity, const std::string& credentials_sealed);
    // A sandbox account: the identity is made up, never checked with the platform.
    static Account insert_sandbox(db::Session& s, long long workspace_id,
                                  const std::string& platform, const Identity& identity,
                                  const std::string& credentials_sealed);
    static std::optional<Account> find(db::Session& s, long long workspace_id, AccountView view,
                                       const std::string& public_id, bool for_update = false);
    // The connected (non-sandbox) account of this identity on `platform` in the workspace, locked.
    static std::optional<Account> find_identity_for_update(db::Session& s, long long workspace_id,
                                                           const std::string& platform,
                                                           const std::string& external_id);
    // New credentials and names for a connected account (a reconnect): its token is valid again
    // and no reason to reconnect remains.
    static void reconnect(db::Session& s, long long id, const Identity& identity,
                          const std::string& credentials_sealed);
    // When the account's access token expires (OAuth platforms); nullopt: it does not.
    static void set_token_expiry(db::Session& s, long long id,
                                 std::optional<time::TimePoint> expires_at);
    // Up to `limit` connected non-sandbox accounts with a valid token expiring before `before` and
    // no refresh under way, each leased to the caller until `lease_until` (commit to hold the
    // lease).
    static std::vector<Account> lease_due_refreshes(db::Session& s, time::TimePoint before,
                                                    time::TimePoint lease_until, int limit);
    // Up to `limit` connected non-sandbox accounts with a valid token whose metrics reading is due
    // at `now`, each leased to the caller until `lease_until` (commit to hold the lease).
    static std::vector<Account> lease_due_metrics(db::Session& s, time::TimePoint now,
                                                  time::TimePoint lease_until, int limit);
    // A refresh's new credentials and expiry: the lease ends and the token is valid again.
    static void record_refresh(db::Session& s, long long id, const std::string& credentials_sealed,
                               std::optional<time::TimePoint> expires_at);
    // Connected accounts, newest first; `platform` empty means every platform.
    static std::vector<Account> connected(db::Session& s, long long workspace_id, AccountView view,
                                          const std::string& platform, long long offset, int limit);
    // The same with the total across pages.
    static AccountPage list(db::Session& s, long long workspace_id, AccountView view,
                            const std::string& platform, long long offset, int limit);
    // Which of `public_ids` are connected accounts of the workspace, as {public id, row id}.
    static std::vector<std::pair<std::string, long long>> resolve(
        db::Session& s, long long workspace_id, AccountView view,
        const std::vector<std::string>& public_ids);
    // The public ids of those of the accounts `ids` whose token the platform refused.
    static std::vector<std::string> to_reconnect(db::Session& s, const std::vector<long long>& ids);
    static void rename(db::Session& s, long long id, const std::string& display_name);
    static void record_health(db::Session& s, long long id, bool token_valid,
                              const std::optional<std::string>& last_error);
    // The token is invalid until the account is connected again, for `reason`.
    static void require_reconnect(db::Session& s, long long id, const std::string& reason);
    // Throws a duplicate-key db::DatabaseError when the target already has this identity.
    static void move(db::Session& s, long long id, long long target_workspace_id);
    // The row stays for history; its credentials are wiped and its group memberships dropped.
    static void disconnect(db::Session& s, long long id);
};

// Whether the account has scheduled or in-flight posts (a move must wait for them).
bool has_pending_posts(db::Session& s, long long account_id);

}  // namespace squawk::social
