// SQL for a workspace's own content policy (table content_policy_rules): its blocked words and
// patterns, read by every generate call and replaced whole by PUT /content-policy.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/generation/content_policy.hpp"

#include <memory>

namespace squawk::generation {

class ContentPolicyRepository {
  public:
    // In the order they were given.
    static ContentPolicyLists load(db::Session& s, long long workspace_id);
    // Replaces both lists; run it in a transaction.
    static void replace(db::Session& s, long long workspace_id, const ContentPolicyLists& lists);
};

// The workspace's own policy, compiled: read on each call (one indexed SELECT, so a change counts
// at once on every API process) and compiled once per distinct lists. Null when it has none.
std::shared_ptr<const ContentPolicy> workspace_content_policy(db::MysqlPool& mysql,
                                                              long long workspace_id);

}  // namespace squawk::generation
