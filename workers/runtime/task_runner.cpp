#include "workers/runtime/task_runner.hpp"

#include "common/core/error/api_error.hpp"
#include "common/core/log/logger.hpp"
#include "workers/errors.hpp"
#include "workers/runtime/backoff.hpp"

#include <algorithm>

namespace squawk::workers {
namespace {

nlohmann::json job_fields(const jobs::ClaimedJob& job) {
    return {{"job_id", job.public_id},
            {"workspace_id", job.workspace_id},
            {"type", job.type},
            {"attempt", job.attempts}};
}

}  // namespace

jobs::Outcome retry_or_dead_letter(const jobs::ClaimedJob& job, const std::string& message,
                                   const config::JobSettings& settings,
                                   std::chrono::microseconds not_before) {
    if (job.attempts >= job.max_attempts) {
        auto o = jobs::outcome_of(job, jobs::Outcome::Kind::failed);
        o.dead_lettered = true;
        o.error = {
            {"code", error_info(ErrorCode::JobFailed).code},
            {"message", "The job failed after " + std::to_string(job.attempts) + " attempts."},
            {"details", {{"attempts", job.attempts}, {"last_error", message}}}};
        log::warn("job dead-lettered", [&] {
            auto f = job_fields(job);
            f["error"] = message;
            return f;
        }());
        return o;
    }
    auto o = jobs::outcome_of(job, jobs::Outcome::Kind::retry);
    o.run_after = time::now() + std::max<std::chrono::microseconds>(
                                    jittered_backoff(job.attempts, settings), not_before);
    o.error = {{"code", error_info(ErrorCode::JobFailed).code},
               {"message", "Attempt " + std::to_string(job.attempts) + " of " +
                               std::to_string(job.max_attempts) + " failed; it will be retried."},
               {"details",
                {{"attempts", job.attempts},
                 {"last_error", message},
                 {"next_attempt_at", time::format_iso8601(o.run_after)}}}};
    log::info("job attempt failed; retrying", [&] {
        auto f = job_fields(job);
        f["error"] = message;
        f["run_after"] = time::format_iso8601(o.run_after);
        return f;
    }());
    return o;
}

jobs::Outcome permanent_failure(const jobs::ClaimedJob& job, const std::string& reason,
                                const nlohmann::json& details) {
    auto o = jobs::outcome_of(job, jobs::Outcome::Kind::failed);
    nlohmann::json all_details = details.is_object() ? details : nlohmann::json::object();
    all_details["reason"] = reason;
    all_details["attempts"] = job.attempts;
    o.error = {{"code", error_info(ErrorCode::JobFailed).code},
               {"message", reason},
               {"details", all_details}};
    log::warn("job failed permanently", [&] {
        auto f = job_fields(job);
        f["error"] = reason;
        return f;
    }());
    return o;
}

jobs::Outcome run_job(const TaskRegistry& registry, const jobs::ClaimedJob& job,
                      TaskContext& context, const config::JobSettings& settings) {
    TaskHandler* handler = registry.find(job.type);
    if (!handler)
        return permanent_failure(job, "no worker handles job type '" + job.type + "'", {});
    try {
        if (job.run_after && !handler->prepares_ahead()) context.wait_until(*job.run_after);
        auto o = jobs::outcome_of(job, jobs::Outcome::Kind::completed);
        o.result = handler->run(job, context);
        if (o.result.is_null()) o.result = nlohmann::json::object();
        log::debug("job completed", job_fields(job));
        return o;
    } catch (const PermanentError& e) {
        return permanent_failure(job, e.what(), e.details());
    } catch (const RetryableError& e) {
        return retry_or_dead_letter(job, e.what(), settings, e.not_before());
    } catch (const TaskCancelled& e) {
        // Recorded only if the row is still running under this claim, which a cancelled or
        // given-back job no longer is: the outcome just settles the stream entry.
        log::info("job stopped at a safe point", job_fields(job));
        return permanent_failure(job, e.what(), {});
    } catch (const std::exception& e) {
        return retry_or_dead_letter(job, e.what(), settings);
    } catch (...) {
        return retry_or_dead_letter(job, "unknown error", settings);
    }
}

}  // namespace squawk::workers
