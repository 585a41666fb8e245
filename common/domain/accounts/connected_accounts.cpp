#include "common/domain/accounts/connected_accounts.hpp"

#include "common/domain/social/account_status.hpp"

namespace squawk::accounts {

long long ConnectedAccounts::count(db::Session& s, long long workspace_id) {
    // Sandbox accounts cost nothing to make: they must not buy a higher tier.
    return s
        .query_one(
            "SELECT COUNT(*) FROM social_accounts WHERE workspace_id = ?"
            " AND status = ? AND sandbox = 0",
            {workspace_id, name_of(social::AccountStatus::connected)})
        ->integer(0);
}

std::string ConnectedAccounts::cache_key(const redis::RedisClient& r, long long workspace_id) {
    // The workspace's hash tag puts it in the slot of the rate-limit keys that read it.
    return r.key("accounts:connected:{ws:" + std::to_string(workspace_id) + "}");
}

void ConnectedAccounts::cache(redis::RedisClient& r, long long workspace_id, long long count,
                              int ttl_seconds) {
    r.command({"SET", cache_key(r, workspace_id), std::to_string(count), "EX",
               std::to_string(ttl_seconds)});
}

void ConnectedAccounts::invalidate(redis::RedisClient& r, long long workspace_id) {
    r.command({"DEL", cache_key(r, workspace_id)});
}

}  // namespace squawk::accounts
