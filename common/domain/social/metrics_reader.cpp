#include "common/domain/social/metrics_reader.hpp"

#include "common/core/config/config.hpp"
#include "common/core/log/logger.hpp"
#include "common/domain/social/account_credentials.hpp"
#include "common/domain/social/account_metrics_repository.hpp"
#include "common/domain/social/account_repository.hpp"
#include "common/domain/social/post_metrics_repository.hpp"

namespace squawk::social {
namespace {

const Account& account_of(const Account& account) {
    return account;
}

const Account& account_of(const DuePostTarget& target) {
    return target.account;
}

}  // namespace

template <class Due, class Ask, class Store>
int MetricsReader::read_each(const std::vector<Due>& due, Ask ask, Store store) {
    int recorded = 0;
    for (const auto& item : due) {
        const Account& account = account_of(item);
        auto connector = make_connector(account.platform, config_.social, http_);
        if (!connector) continue;
        Target target;
        target.identity = account.identity;
        try {
            target.credentials = open_credentials(config_.security, account.credentials_sealed);
        } catch (const std::exception&) {
            continue;  // the publish path and health checks report unreadable credentials
        }
        const std::optional<MetricsReading> reading = ask(*connector, target, item);
        if (reading && reading->failure) {
            log::info("metrics could not be read; trying again after the lease",
                      {{"account_id", account.public_id}, {"reason", reading->failure->reason}});
            continue;
        }
        const auto at = time::now();
        mysql_.run(
            [&](db::Session& s) { store(s, item, reading ? &reading->metrics : nullptr, at); });
        if (reading) ++recorded;
    }
    return recorded;
}

int MetricsReader::run_once() {
    return read_accounts() + read_posts();
}

int MetricsReader::read_accounts() {
    const auto now = time::now();
    const auto due = mysql_.transaction([&](db::Session& s) {
        return AccountRepository::lease_due_metrics(s, now, now + kLease, kBatch);
    });
    return read_each(
        due,
        [](Connector& c, const Target& target, const Account&) {
            return c.account_metrics(target);
        },
        // A platform that exposes nothing is asked again at the next reading time, in case a
        // later version of its connector does.
        [](db::Session& s, const Account& account, const Metrics* metrics, time::TimePoint at) {
            if (metrics)
                AccountMetricsRepository::record(s, account.id, *metrics, at, at + kEvery);
            else
                AccountMetricsRepository::postpone(s, account.id, at + kEvery);
        });
}

// Most of what a post gathers comes in its first hours and days, and analytics compares posts by
// how they did early on: read hourly in the first day, every 6 hours in the first week, then
// daily until the window ends, so that a busy workspace's month of posts costs few calls.
std::chrono::hours MetricsReader::post_interval(std::chrono::microseconds age) {
    if (age < std::chrono::days(1)) return std::chrono::hours(1);
    if (age < std::chrono::weeks(1)) return std::chrono::hours(6);
    return std::chrono::hours(24);
}

int MetricsReader::read_posts() {
    const auto now = time::now();
    const auto due = mysql_.transaction([&](db::Session& s) {
        return PostMetricsRepository::lease_due(s, now, now - kPostWindow, now + kLease, kBatch);
    });
    return read_each(
        due,
        [](Connector& c, const Target& target, const DuePostTarget& post) {
            return c.post_metrics(target, post.external_id);
        },
        // A platform that exposes nothing for posts is not asked again within the post's window.
        [](db::Session& s, const DuePostTarget& post, const Metrics* metrics, time::TimePoint at) {
            if (metrics)
                PostMetricsRepository::record(s, post.id, *metrics, at,
                                              at + post_interval(at - post.published_at));
            else
                PostMetricsRepository::postpone(s, post.id, at + kPostWindow);
        });
}

}  // namespace squawk::social
