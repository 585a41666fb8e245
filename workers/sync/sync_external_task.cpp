#include "workers/sync/sync_external_task.hpp"

#include "common/core/config/config.hpp"
#include "common/domain/social/account_credentials.hpp"
#include "common/domain/social/external_posts.hpp"
#include "workers/errors.hpp"

#include <algorithm>
#include <set>

namespace squawk::workers::sync {
namespace {

// Far above the accounts a workspace connects; the listing is paged at this size.
constexpr int kAccountPage = 1000;

struct Tally {
    int imported = 0;
    int updated = 0;
    int unchanged = 0;
};

std::vector<social::Account> accounts_to_sync(const jobs::ClaimedJob& job, TaskContext& context) {
    std::set<long long> wanted;
    for (const auto& id : job.payload.value("account_ids", nlohmann::json::array()))
        if (id.is_number_integer()) wanted.insert(id.get<long long>());
    std::vector<social::Account> out;
    for (long long offset = 0;; offset += kAccountPage) {
        const auto page = context.in_database([&](db::Session& s) {
            return social::AccountRepository::connected(
                s, job.workspace_id, social::account_view(job.is_test), "", offset, kAccountPage);
        });
        for (const auto& account : page)
            if (wanted.empty() || wanted.contains(account.id)) out.push_back(account);
        if (page.size() < static_cast<size_t>(kAccountPage)) break;
    }
    return out;
}

Tally import_all(const social::Account& account, std::vector<social::RemotePost> posts,
                 TaskContext& context) {
    // Oldest first, so imported posts are numbered in the order they were published.
    std::reverse(posts.begin(), posts.end());
    Tally tally;
    for (const auto& remote : posts) {
        context.stop_if_cancelled();
        const auto outcome = context.in_transaction(
            [&](db::Session& s) { return social::import_external_post(s, account, remote); });
        if (outcome == social::ImportOutcome::created) ++tally.imported;
        if (outcome == social::ImportOutcome::updated) ++tally.updated;
        if (outcome == social::ImportOutcome::unchanged) ++tally.unchanged;
    }
    return tally;
}

}  // namespace

nlohmann::json SyncExternalTask::run(const jobs::ClaimedJob& job, TaskContext& context) {
    if (!context.http()) throw PermanentError("this worker has no HTTP client for syncing");
    const auto& config = context.config();
    nlohmann::json reports = nlohmann::json::array();
    Tally total;
    int unreachable = 0;
    const auto accounts = accounts_to_sync(job, context);
    for (const auto& account : accounts) {
        nlohmann::json report = {{"account_id", account.public_id}, {"platform", account.platform}};
        if (account.sandbox) {
            report["listed"] = false;
            report["reason"] = "a sandbox account has no posts on the platform";
            reports.push_back(std::move(report));
            continue;
        }
        auto connector = social::make_connector(account.platform, config.social, *context.http());
        std::optional<social::RemoteListing> listing;
        social::Target target;
        try {
            target = social::target_of(account, config.security);
        } catch (const std::exception&) {
            report["error"] = "the account's credentials cannot be read: reconnect it";
            reports.push_back(std::move(report));
            continue;
        }
        // The worker's client parks only this fiber while the platform answers.
        listing = connector->list_recent(target);
        report["listed"] = listing.has_value();
        if (!listing) {
            report["reason"] = "the platform offers this account no listing of its posts";
        } else if (listing->failure) {
            report["error"] = listing->failure->reason;
            if (listing->failure->kind == social::FailureKind::not_accepted) ++unreachable;
        } else {
            const auto tally = import_all(account, std::move(listing->posts), context);
            report["imported"] = tally.imported;
            report["updated"] = tally.updated;
            report["unchanged"] = tally.unchanged;
            total.imported += tally.imported;
            total.updated += tally.updated;
            total.unchanged += tally.unchanged;
        }
        reports.push_back(std::move(report));
    }
    // Nothing could be listed because platforms were busy or down: the whole sync runs again.
    if (unreachable > 0 && total.imported + total.updated + total.unchanged == 0 &&
        unreachable == static_cast<int>(accounts.size()))
        throw RetryableError("no platform answered the listing");
    return {{"imported", total.imported},
            {"updated", total.updated},
            {"unchanged", total.unchanged},
            {"accounts", std::move(reports)}};
}

}  // namespace squawk::workers::sync
