#include "workers/publish/message_changes.hpp"

#include "common/core/config/config.hpp"
#include "common/domain/social/account_credentials.hpp"
#include "common/domain/social/account_repository.hpp"
#include "common/domain/social/post_repository.hpp"
#include "workers/errors.hpp"

#include <algorithm>

namespace squawk::workers::publish {
namespace {

using nlohmann::json;

// What a change came to on one target, as the job's result lists it: `checked` is a live post's
// target left as it is under a test key.
enum class TargetChange { done, checked, failed, retrying };

std::span<const char* const> wire_names(TargetChange) {
    static constexpr const char* names[] = {"done", "checked", "failed", "retrying"};
    return names;
}

json outcome(const social::PostTarget& t, TargetChange status, json error = nullptr) {
    return {{"account_id", t.account_public_id},
            {"platform", t.platform},
            {"platform_post_id", t.external_id ? json(*t.external_id) : json()},
            {"status", status},
            {"error", std::move(error)}};
}

}  // namespace

bool is_sandbox(const jobs::ClaimedJob& job, const social::Post& post) {
    return job.is_test || post.is_test;
}

social::Post load_post(const jobs::ClaimedJob& job, TaskContext& context) {
    const auto post_id = job.payload.value("post_id", 0LL);
    auto post = context.in_database(
        [&](db::Session& s) { return social::PostRepository::find(s, job.workspace_id, post_id); });
    if (!post) throw PermanentError("post " + std::to_string(post_id) + " no longer exists");
    return std::move(*post);
}

ChangeReport apply_to_targets(const jobs::ClaimedJob& job, TaskContext& context,
                              const social::Post& post, social::TargetErrorCode refusal_code,
                              const ApplyChange& apply, const RecordChange& record) {
    ChangeReport report;
    const bool sandbox = is_sandbox(job, post);
    auto done = [&](const social::PostTarget& t) {
        report.targets.push_back(outcome(t, TargetChange::done));
        ++report.changed;
    };
    auto failed = [&](const social::PostTarget& t, json error) {
        report.targets.push_back(outcome(t, TargetChange::failed, std::move(error)));
        ++report.failed;
    };
    for (const auto& t : post.targets) {
        context.stop_if_cancelled();
        if (t.change_job_id == job.id) {
            done(t);  // an earlier attempt of this job changed it
            continue;
        }
        if (t.status != social::TargetStatus::published || !t.external_id) continue;
        if (sandbox) {
            if (!post.is_test) {
                // A live post stays as it is.
                report.targets.push_back(outcome(t, TargetChange::checked));
                continue;
            }
            context.in_transaction([&](db::Session& s) { record(s, t, time::now()); });
            done(t);
            continue;
        }
        const auto account = context.in_database([&](db::Session& s) {
            return social::AccountRepository::find(s, post.workspace_id, social::AccountView::live,
                                                   t.account_public_id);
        });
        if (!account || account->status != social::AccountStatus::connected) {
            failed(t, target_error(social::TargetErrorCode::account_disconnected,
                                   "The account was disconnected; its message was not changed.",
                                   {{"account_id", t.account_public_id}}));
            continue;
        }
        auto connector =
            social::make_connector(account->platform, context.config().social, *context.http());
        social::Target target;
        try {
            target = social::target_of(*account, context.config().security);
        } catch (const std::exception&) {
            failed(t, target_error(social::TargetErrorCode::account_reconnect_required,
                                   "The account's credentials cannot be opened; reconnect it."));
            continue;
        }
        if (!connector) {
            failed(t, target_error(social::TargetErrorCode::platform_unsupported,
                                   t.platform + " is not supported."));
            continue;
        }
        // The worker's HTTP client parks only this fiber while the platform answers.
        const auto change = apply(*connector, target, *t.external_id);
        if (!change.failure) {
            context.in_transaction([&](db::Session& s) { record(s, t, time::now()); });
            done(t);
            continue;
        }
        const auto& f = *change.failure;
        const json detail = {{"http_status", f.http_status}, {"reason", f.reason}};
        if (f.kind == social::FailureKind::refused) {
            failed(t, target_error(refusal_code, f.reason, detail));
        } else if (job.attempts >= job.max_attempts) {
            failed(t, target_error(social::TargetErrorCode::platform_unavailable,
                                   "The platform did not take the change after " +
                                       std::to_string(job.attempts) + " attempts: " + f.reason,
                                   detail));
        } else {
            report.targets.push_back(outcome(
                t, TargetChange::retrying,
                target_error(social::TargetErrorCode::platform_unavailable, f.reason, detail)));
            report.retry_reason = t.platform + ": " + f.reason;
            report.retry_after =
                std::max(report.retry_after, f.retry_after.value_or(std::chrono::seconds(0)));
        }
    }
    return report;
}

nlohmann::json settle(const jobs::ClaimedJob& job, const social::Post& post,
                      const ChangeReport& report, const std::string& done) {
    if (report.retry_reason)
        throw RetryableError(*report.retry_reason, time::scaled(report.retry_after));
    nlohmann::json result = {{"post_id", post.id},
                             {done, report.changed},
                             {"failed", report.failed},
                             {"sandbox", is_sandbox(job, post)},
                             {"targets", report.targets}};
    if (report.changed == 0 && report.failed > 0)
        throw PermanentError("no message of the post could be " + done, result);
    return result;
}

}  // namespace squawk::workers::publish
