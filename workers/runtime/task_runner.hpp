// Runs one claimed job through its handler and turns how it ended into the outcome MySQL records:
// completed, retrying with backoff, failed at once, or dead-lettered after the last attempt.
#pragma once

#include "common/domain/jobs/job_repository.hpp"
#include "common/domain/jobs/job_settings.hpp"
#include "workers/tasks/task_registry.hpp"

namespace squawk::workers {

jobs::Outcome run_job(const TaskRegistry& registry, const jobs::ClaimedJob& job,
                      TaskContext& context, const config::JobSettings& settings);

// The outcome of an attempt that failed in a way that may succeed later.
jobs::Outcome retry_or_dead_letter(
    const jobs::ClaimedJob& job, const std::string& message, const config::JobSettings& settings,
    std::chrono::microseconds not_before = std::chrono::microseconds(0));

// The outcome of an attempt that can never succeed.
jobs::Outcome permanent_failure(const jobs::ClaimedJob& job, const std::string& reason,
                                const nlohmann::json& details);

}  // namespace squawk::workers
