#include "common/domain/social/account_service.hpp"

#include "common/core/config/config.hpp"
#include "common/core/crypto/crypto.hpp"
#include "common/core/error/api_error.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/text/concat.hpp"
#include "common/domain/accounts/connected_accounts.hpp"
#include "common/domain/profiles/profile_repository.hpp"
#include "common/domain/social/account_credentials.hpp"
#include "common/domain/social/oauth_grant.hpp"
#include "common/domain/social/platform_failure_error.hpp"

#include <string_view>

namespace squawk::social {
namespace {

[[noreturn]] void account_not_found() {
    throw ApiError(ErrorCode::NotFound, "No connected account with this id.");
}

}  // namespace

void AccountService::invalidate_tier(long long workspace_id) {
    try {
        redis_.run([&](redis::RedisClient& r) {
            accounts::ConnectedAccounts::invalidate(r, workspace_id);
        });
    } catch (const std::exception& e) {
        // The cached count expires on its own; the change itself is committed.
        log::warn("could not invalidate the connected-account count",
                  {{"workspace_id", workspace_id}, {"error", e.what()}});
    }
}

const PlatformFactory& connectable_platform(std::string_view id_or_alias) {
    const auto* platform = find_platform(id_or_alias);
    if (!platform)
        throw ApiError(ErrorCode::NotFound, "No platform of this name can be connected.");
    return *platform;
}

GrantedAccount AccountService::connect(long long workspace_id, const PlatformFactory& platform,
                                       Credentials credentials) {
    auto connector = make_connector(platform.id, config_.social, http_);
    const auto problems = connector->check(credentials);
    if (!problems.empty()) {
        nlohmann::json fields = nlohmann::json::object();
        for (const auto& p : problems) fields[p.field] = p.reason;
        throw validation_error(fields);
    }
    return store(workspace_id, platform, verified_identity(platform, *connector, credentials),
                 credentials);
}

Identity AccountService::verified_identity(const PlatformFactory& platform, Connector& connector,
                                           const Credentials& credentials) {
    const auto verification = connector.verify(credentials);
    if (verification.failure) raise_platform_failure(platform, *verification.failure);
    return *verification.identity;
}

GrantedAccount AccountService::connect_granted(long long workspace_id,
                                               const PlatformFactory& platform,
                                               const Credentials& granted) {
    auto connector = make_connector(platform.id, config_.social, http_);
    return store(workspace_id, platform, verified_identity(platform, *connector, granted), granted);
}

GrantedAccount AccountService::store(long long workspace_id, const PlatformFactory& platform,
                                     const Identity& identity, const Credentials& credentials) {
    const std::string sealed = seal_credentials(config_.security, credentials);
    GrantedAccount out;
    try {
        out.account = mysql_.transaction([&](db::Session& s) {
            const auto existing = AccountRepository::find_identity_for_update(
                s, workspace_id, std::string(platform.id), identity.external_id);
            out.reconnected = existing.has_value();
            Account account;
            if (existing) {
                AccountRepository::reconnect(s, existing->id, identity, sealed);
                account = *AccountRepository::find(s, workspace_id, AccountView::live,
                                                   existing->public_id);
            } else {
                account = AccountRepository::insert(s, workspace_id, std::string(platform.id),
                                                    identity, sealed);
            }
            AccountRepository::set_token_expiry(s, account.id, token_expiry(credentials));
            return account;
        });
    } catch (const db::DatabaseError& e) {
        // Two connects of one identity at once: the other one's insert won.
        if (!e.is_duplicate_key()) throw;
        throw ApiError(ErrorCode::Conflict,
                       text::concat({"This ", platform.display_name,
                                     " account is being connected by another request."}),
                       {{"external_id", identity.external_id}});
    }
    if (!out.reconnected) invalidate_tier(workspace_id);
    log::info(out.reconnected ? "social account reconnected" : "social account connected",
              {{"account_id", out.account.public_id},
               {"platform", out.account.platform},
               {"workspace_id", workspace_id}});
    return out;
}

Account AccountService::connect_sandbox(long long workspace_id, const PlatformFactory& platform,
                                        const std::string& name) {
    Identity identity;
    identity.display_name = name;
    identity.external_id = "sandbox-" + crypto::hex(crypto::random_bytes(12));
    // An empty set, sealed like any other, so every path that opens credentials reads it.
    const std::string sealed = seal_credentials(config_.security, Credentials{});
    const auto account = mysql_.transaction([&](db::Session& s) {
        return AccountRepository::insert_sandbox(s, workspace_id, std::string(platform.id),
                                                 identity, sealed);
    });
    log::info("sandbox social account connected", {{"account_id", account.public_id},
                                                   {"platform", account.platform},
                                                   {"workspace_id", workspace_id}});
    return account;
}

std::vector<FollowerSeries> AccountService::follower_stats(long long workspace_id, AccountView view,
                                                           int days) {
    const auto first_day = utc_day(time::now() - std::chrono::hours(24) * (days - 1));
    return mysql_.run([&](db::Session& s) {
        return AccountMetricsRepository::follower_series(s, workspace_id, view, first_day);
    });
}

AccountPage AccountService::list(long long workspace_id, AccountView view,
                                 const std::string& platform, long long offset, int limit) {
    return mysql_.run([&](db::Session& s) {
        return AccountRepository::list(s, workspace_id, view, platform, offset, limit);
    });
}

AccountPage AccountService::check_health(long long workspace_id, AccountView view,
                                         const std::string& platform, long long offset, int limit) {
    auto page = list(workspace_id, view, platform, offset, limit);
    for (auto& account : page.items) {
        // No platform knows a sandbox account: its verdict stays as it was connected. An account
        // that must reconnect keeps that verdict: its access token may still pass while the
        // refresh that would replace it is refused.
        if (account.sandbox || account.reconnect_reason) continue;
        auto connector = make_connector(account.platform, config_.social, http_);
        if (!connector) continue;
        Verification v;
        try {
            v = connector->verify(open_credentials(config_.security, account.credentials_sealed));
        } catch (const std::exception&) {
            // Credentials sealed under another key cannot be used: the account must reconnect.
            v.failure = PlatformFailure{FailureKind::refused,
                                        "stored credentials cannot be read; reconnect the account",
                                        std::nullopt, 0, ""};
        }
        if (!v.failure) {
            account.token_valid = true;
            account.last_error.reset();
        } else {
            // Only a refusal proves the token bad; an outage leaves the last verdict standing.
            if (v.failure->kind == FailureKind::refused) account.token_valid = false;
            account.last_error = v.failure->reason;
        }
        account.last_checked_at = time::now();
        mysql_.run([&](db::Session& s) {
            AccountRepository::record_health(s, account.id, account.token_valid,
                                             account.last_error);
        });
    }
    return page;
}

Account AccountService::rename(long long workspace_id, AccountView view, const std::string& id,
                               const std::string& display_name) {
    return mysql_.transaction([&](db::Session& s) {
        auto account = AccountRepository::find(s, workspace_id, view, id, true);
        if (!account) account_not_found();
        AccountRepository::rename(s, account->id, display_name);
        return *AccountRepository::find(s, workspace_id, view, id);
    });
}

Account AccountService::move(long long workspace_id, AccountView view, long long owner_workspace_id,
                             const std::string& id, long long profile_id) {
    long long target = 0;
    Account moved;
    try {
        moved = mysql_.transaction([&](db::Session& s) {
            auto profile = profiles::ProfileRepository::find(s, owner_workspace_id, profile_id);
            if (!profile) throw ApiError(ErrorCode::NotFound, "No profile with this id.");
            if (profile->status != "active")
                throw ApiError(ErrorCode::Conflict, "The target profile is paused.");
            target = profile->workspace_id;
            auto account = AccountRepository::find(s, workspace_id, view, id, true);
            if (!account) account_not_found();
            if (has_pending_posts(s, account->id))
                throw ApiError(ErrorCode::Conflict,
                               "The account has scheduled or in-flight posts; move it after they "
                               "are published or cancelled.");
            if (target != workspace_id) AccountRepository::move(s, account->id, target);
            return *AccountRepository::find(s, target, view, id);
        });
    } catch (const db::DatabaseError& e) {
        if (!e.is_duplicate_key()) throw;
        throw ApiError(ErrorCode::Conflict,
                       "The target profile already has this account connected.");
    }
    invalidate_tier(workspace_id);
    invalidate_tier(target);
    return moved;
}

void AccountService::disconnect(long long workspace_id, AccountView view, const std::string& id) {
    mysql_.transaction([&](db::Session& s) {
        auto account = AccountRepository::find(s, workspace_id, view, id, true);
        if (!account) account_not_found();
        AccountRepository::disconnect(s, account->id);
    });
    invalidate_tier(workspace_id);
    log::info("social account disconnected", {{"account_id", id}, {"workspace_id", workspace_id}});
}

}  // namespace squawk::social
