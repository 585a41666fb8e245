// Edit and unpublish of published posts: every check runs before a job is accepted (state, one
// change at a time, platform support, limits); the publish pool's jobs then call the platforms.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/jobs/job_submitter.hpp"
#include "common/domain/social/post_validation.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace squawk::social {

// The new text of a published post: its content and link, as at creation.
struct PostEdit {
    std::string content;
    std::optional<std::string> link;
};

// An accepted edit: its social.edit job and the platforms' warnings, keyed by platform.
struct AcceptedEdit {
    jobs::Job job;
    nlohmann::json warnings;
};

class PostChangeService {
  public:
    PostChangeService(db::MysqlPool& mysql, jobs::JobSubmitter& submitter,
                      const LimitsTable& limits)
        : mysql_(mysql), submitter_(submitter), limits_(limits) {}

    AcceptedEdit edit(long long workspace_id, bool is_test, long long post_id,
                      const PostEdit& edit);
    // The accepted social.unpublish job, or nothing when the post was never published (the
    // caller cancels it instead).
    std::optional<jobs::Job> unpublish(long long workspace_id, bool is_test, long long post_id);

  private:
    db::MysqlPool& mysql_;
    jobs::JobSubmitter& submitter_;
    const LimitsTable& limits_;
};

// The targets whose message is on a platform now.
std::vector<PostTarget> published_targets(const Post& post);

}  // namespace squawk::social
