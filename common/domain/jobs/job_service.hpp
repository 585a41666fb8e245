// What the job routes do (spec 2.12): tenant-scoped reads of jobs and cancelling one, with the
// rule that a finished job cannot be cancelled. Raises ApiError; returns domain types.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/jobs/job_repository.hpp"

#include <optional>
#include <string>

namespace squawk::jobs {

class JobService {
  public:
    explicit JobService(db::MysqlPool& mysql) : mysql_(mysql) {}

    // Throws NotFound when the workspace has no such job.
    Job get(long long workspace_id, const std::string& public_id);
    // Newest first, counted; no `status` lists every status.
    JobPage list(long long workspace_id, std::optional<JobStatus> status, long long offset,
                 int limit);
    // Newest first, a page by row id and no count: cheap at any depth of a big workspace.
    db::Slice<Job> list_keyset(const JobListFilter& filter, const db::Keyset& keyset);
    // The cancelled job; Conflict (with its status) when it had already finished.
    Job cancel(long long workspace_id, const std::string& public_id);

  private:
    db::MysqlPool& mysql_;
};

}  // namespace squawk::jobs
