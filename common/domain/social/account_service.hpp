// What the social account routes do: connect after the platform verified the credentials (or a
// test key's sandbox account, without the platform), list, re-check health, rename, move between
// the owner's workspaces and disconnect. Each read names the key's AccountView. Raises ApiError.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/core/http/http_client.hpp"
#include "common/core/redis/redis_pool.hpp"
#include "common/domain/social/account_metrics_repository.hpp"
#include "common/domain/social/account_repository.hpp"
#include "common/domain/social/connector.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace squawk::social {

// The registered platform named by `id_or_alias`; ApiError NotFound when there is none.
const PlatformFactory& connectable_platform(std::string_view id_or_alias);

// An account recorded by a connect: a new one, or the one of the same identity already connected,
// which took the new credentials.
struct GrantedAccount {
    Account account;
    bool reconnected = false;
};

class AccountService {
  public:
    AccountService(db::MysqlPool& mysql, redis::RedisPool& redis, const config::Config& config,
                   http::Client& http)
        : mysql_(mysql), redis_(redis), config_(config), http_(http) {}

    // Verifies `credentials` with the platform, then stores the account with them sealed: a new
    // account, or the account of the same identity already connected with the new credentials
    // (it keeps its id, posts and history, and no longer needs reconnecting).
    GrantedAccount connect(long long workspace_id, const PlatformFactory& platform,
                           Credentials credentials);
    // The same for tokens the platform granted through OAuth.
    GrantedAccount connect_granted(long long workspace_id, const PlatformFactory& platform,
                                   const Credentials& granted);
    // A sandbox account on `platform` named `name`, for test keys: a made-up identity and no
    // credentials; the platform is never called.
    Account connect_sandbox(long long workspace_id, const PlatformFactory& platform,
                            const std::string& name);
    AccountPage list(long long workspace_id, AccountView view, const std::string& platform,
                     long long offset, int limit);
    // Re-checks the credentials of one page of accounts with their platforms and records it;
    // sandbox accounts are listed as they are, no platform being theirs to ask.
    AccountPage check_health(long long workspace_id, AccountView view, const std::string& platform,
                             long long offset, int limit);
    // Each connected account's daily follower counts over the last `days` UTC days, today
    // included, as the sync pool read them.
    std::vector<FollowerSeries> follower_stats(long long workspace_id, AccountView view, int days);
    Account rename(long long workspace_id, AccountView view, const std::string& id,
                   const std::string& display_name);
    // Moves the account to the workspace of `profile_id`, a profile `owner_workspace_id` owns.
    // The account as it is in the profile's workspace.
    Account move(long long workspace_id, AccountView view, long long owner_workspace_id,
                 const std::string& id, long long profile_id);
    void disconnect(long long workspace_id, AccountView view, const std::string& id);

  private:
    // Records the verified identity's account with `credentials` sealed (see connect).
    GrantedAccount store(long long workspace_id, const PlatformFactory& platform,
                         const Identity& identity, const Credentials& credentials);
    // Who the credentials are, as the platform says; ApiError when it does not say.
    Identity verified_identity(const PlatformFactory& platform, Connector& connector,
                               const Credentials& credentials);
    // The connected-account count changed: the rate tier follows at once (spec 8.1).
    void invalidate_tier(long long workspace_id);

    db::MysqlPool& mysql_;
    redis::RedisPool& redis_;
    const config::Config& config_;
    http::Client& http_;
};

}  // namespace squawk::social
