// The interface every job type implements; handlers live in their pool's folder
// (workers/generate/..., workers/publish/...) and are registered by type name.
#pragma once

#include "common/domain/jobs/job.hpp"
#include "workers/tasks/task_context.hpp"

#include <nlohmann/json.hpp>

namespace squawk::workers {

class TaskHandler {
  public:
    virtual ~TaskHandler() = default;
    // Runs one claimed job on a fiber and returns the job's result. Failure is reported by
    // throwing RetryableError, PermanentError or TaskCancelled (see errors.hpp).
    virtual nlohmann::json run(const jobs::ClaimedJob& job, TaskContext& context) = 0;
    // Whether run() may start before the job's run_after (its pool's lead) to prepare; such a
    // handler calls TaskContext::wait_until(run_after) before it acts. Others start at it.
    virtual bool prepares_ahead() const { return false; }
};

}  // namespace squawk::workers
