#include "workers/tasks/task_context.hpp"

#include "common/core/log/logger.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "workers/errors.hpp"

#include <boost/fiber/operations.hpp>

#include <algorithm>

namespace squawk::workers {

void TaskContext::report_progress(int percent, const std::string& stage) {
    const int clamped = std::clamp(percent, 0, 100);
    try {
        in_database([&](db::Session& s) {
            jobs::JobRepository::set_progress(s, job_.id, job_.claim_token, clamped, stage);
        });
    } catch (const std::exception& e) {
        log::warn(
            "could not record job progress",
            {{"job_id", job_.public_id}, {"workspace_id", job_.workspace_id}, {"error", e.what()}});
    }
}

bool TaskContext::is_cancelled() {
    if (stop_requested_.load()) return true;
    return in_database(
        [&](db::Session& s) { return jobs::JobRepository::is_cancelled(s, job_.id); });
}

void TaskContext::stop_if_cancelled() {
    if (is_cancelled()) throw TaskCancelled();
}

void TaskContext::wait_until(time::TimePoint when) {
    const auto left = when - time::now();
    if (left > time::TimePoint::duration::zero()) boost::this_fiber::sleep_for(left);
}

}  // namespace squawk::workers
