// Operator views and repairs of jobs across workspaces (squawkctl): listings filtered by status,
// workspace or dead-letter flag, and putting a dead-lettered job back on the queue.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/jobs/job_repository.hpp"

#include <optional>
#include <string>
#include <vector>

namespace squawk::jobs {

struct JobFilter {
    std::optional<JobStatus> status;
    std::optional<long long> workspace_id;
    std::optional<std::string> type;
    bool dead_lettered_only = false;
    int limit = 50;
};

// One line of an operator listing.
struct JobSummary {
    std::string public_id;
    long long workspace_id = 0;
    std::string type;
    std::string pool;
    JobStatus status = JobStatus::queued;
    int attempts = 0;
    int max_attempts = 0;
    bool dead_lettered = false;
    std::string error_code;  // empty when the job has no error
    std::string error_message;
    time::TimePoint created_at;
    time::TimePoint updated_at;
};

class JobAdmin {
  public:
    // Newest first.
    static std::vector<JobSummary> list(db::Session& s, const JobFilter& filter);
    // Moves a dead-lettered job back to queued with its attempts, error and timestamps reset.
    // Returns where to enqueue it, or nothing when `public_id` names no dead-lettered job.
    static std::optional<QueueRef> requeue_dead_letter(db::Session& s,
                                                       const std::string& public_id);
    // Takes a dead-lettered job off the dead-letter list for good: it stays failed, with its
    // error, and can no longer be requeued. Returns false when `public_id` names none.
    static bool discard_dead_letter(db::Session& s, const std::string& public_id);
};

}  // namespace squawk::jobs
