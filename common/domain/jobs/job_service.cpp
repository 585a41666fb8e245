#include "common/domain/jobs/job_service.hpp"

#include "common/core/error/api_error.hpp"
#include "common/domain/billing/wallet.hpp"

namespace squawk::jobs {
namespace {

ApiError job_not_found() {
    return ApiError(ErrorCode::NotFound, "No job with this id.");
}

}  // namespace

Job JobService::get(long long workspace_id, const std::string& public_id) {
    auto job =
        mysql_.run([&](db::Session& s) { return JobRepository::find(s, workspace_id, public_id); });
    if (!job) throw job_not_found();
    return std::move(*job);
}

JobPage JobService::list(long long workspace_id, std::optional<JobStatus> status, long long offset,
                         int limit) {
    return mysql_.run([&](db::Session& s) {
        return JobRepository::list(s, JobListFilter{workspace_id, status, std::nullopt}, offset,
                                   limit);
    });
}

db::Slice<Job> JobService::list_keyset(const JobListFilter& filter, const db::Keyset& keyset) {
    return mysql_.run(
        [&](db::Session& s) { return JobRepository::list_keyset(s, filter, keyset); });
}

Job JobService::cancel(long long workspace_id, const std::string& public_id) {
    auto [result, job] = mysql_.transaction([&](db::Session& s) {
        const auto r = JobRepository::cancel(s, workspace_id, public_id);
        auto job = JobRepository::find(s, workspace_id, public_id);
        if (r == CancelResult::cancelled && job)
            billing::Wallet::refund_cancelled_jobs(s, {job->id});
        return std::make_pair(r, std::move(job));
    });
    switch (result) {
        case CancelResult::not_found:
            throw job_not_found();
        case CancelResult::already_terminal:
            throw ApiError(ErrorCode::Conflict, "The job has already finished.",
                           {{"status", job ? nlohmann::json(job->status) : nlohmann::json("")}});
        case CancelResult::cancelled:
            break;
    }
    return std::move(job.value());
}

}  // namespace squawk::jobs
