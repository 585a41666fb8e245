// What the sync route does: checks that the accounts named are connected accounts of
// the workspace and accepts the social.sync_external job that imports their native posts.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/jobs/job_submitter.hpp"

#include <optional>
#include <string>
#include <vector>

namespace squawk::social {

class SyncService {
  public:
    SyncService(db::MysqlPool& mysql, jobs::JobSubmitter& submitter)
        : mysql_(mysql), submitter_(submitter) {}

    // No `account_ids`: every connected account. A validation error names the ids that are not
    // connected accounts of the workspace.
    jobs::Job sync_external_posts(long long workspace_id,
                                  const std::optional<std::vector<std::string>>& account_ids,
                                  bool is_test);

  private:
    db::MysqlPool& mysql_;
    jobs::JobSubmitter& submitter_;
};

}  // namespace squawk::social
