#include "common/domain/social/token_refresher.hpp"

#include "common/core/config/config.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/text/concat.hpp"
#include "common/domain/social/account_credentials.hpp"
#include "common/domain/social/account_repository.hpp"
#include "common/domain/social/oauth_client_config.hpp"
#include "common/domain/social/oauth_grant.hpp"

namespace squawk::social {

int TokenRefresher::run_once() {
    const auto due = mysql_.transaction([&](db::Session& s) {
        return AccountRepository::lease_due_refreshes(s, time::now() + kAhead, time::now() + kLease,
                                                      kBatch);
    });
    int refreshed = 0;
    for (const auto& account : due) {
        const auto* platform = find_platform(account.platform);
        const auto client = platform ? configured_oauth_client(config_, *platform) : std::nullopt;
        if (!client) {
            log::warn(
                "an OAuth account's token expires and its platform has no application "
                "configured",
                {{"account_id", account.public_id}, {"platform", account.platform}});
            continue;
        }
        auto current = open_credentials(config_.security, account.credentials_sealed);
        auto connector = make_connector(account.platform, config_.social, http_);
        const auto grant = connector->refresh(*client, current);
        if (grant.failure && grant.failure->kind == FailureKind::refused) {
            const std::string reason =
                text::concat({platform->display_name, " refused to refresh the token (",
                              grant.failure->reason, "); reconnect the account"});
            mysql_.run([&](db::Session& s) {
                AccountRepository::require_reconnect(s, account.id, reason);
            });
            log::warn("an OAuth account must be reconnected",
                      {{"account_id", account.public_id}, {"reason", reason}});
            continue;
        }
        if (grant.failure) {
            log::info("a token refresh did not reach the platform; trying again after the lease",
                      {{"account_id", account.public_id}, {"reason", grant.failure->reason}});
            continue;
        }
        // An expiry absent from the grant means the new token does not expire.
        current.erase("expires_at");
        for (const auto& [name, value] : grant.credentials) current[name] = value;
        const auto sealed = seal_credentials(config_.security, current);
        mysql_.run([&](db::Session& s) {
            AccountRepository::record_refresh(s, account.id, sealed, token_expiry(current));
        });
        ++refreshed;
    }
    return refreshed;
}

}  // namespace squawk::social
