#include "common/domain/social/metrics_reader.hpp"

#include "common/core/config/config.hpp"
#include "common/core/log/logger.hpp"
#include "common/domain/social/account_credentials.hpp"
#include "common/domain/social/account_metrics_repository.hpp"
#include "common/domain/social/account_repository.hpp"

namespace squawk::social {

int MetricsReader::run_once() {
    const auto now = time::now();
    const auto due = mysql_.transaction([&](db::Session& s) {
        return AccountRepository::lease_due_metrics(s, now, now + kLease, kBatch);
    });
    int recorded = 0;
    for (const auto& account : due) {
        auto connector = make_connector(account.platform, config_.social, http_);
        if (!connector) continue;
        Target target;
        target.identity = account.identity;
        try {
            target.credentials = open_credentials(config_.security, account.credentials_sealed);
        } catch (const std::exception&) {
            continue;  // the publish path and health checks report unreadable credentials
        }
        const auto reading = connector->account_metrics(target);
        if (reading && reading->failure) {
            log::info("an account's metrics could not be read; trying again after the lease",
                      {{"account_id", account.public_id}, {"reason", reading->failure->reason}});
            continue;
        }
        // A platform that exposes nothing is asked again at the next reading time, in case a
        // later version of its connector does.
        const auto at = time::now();
        mysql_.run([&](db::Session& s) {
            if (reading)
                AccountMetricsRepository::record(s, account.id, reading->metrics, at, at + kEvery);
            else
                AccountMetricsRepository::postpone(s, account.id, at + kEvery);
        });
        if (reading) ++recorded;
    }
    return recorded;
}

}  // namespace squawk::social
