// `social.sync_external` (POST /social/posts/sync-external): lists recent messages of the
// workspace's accounts whose platform can list them and imports the ones Squawk did not publish
// as `external` posts, updating those edited since.
#pragma once

#include "workers/tasks/task_handler.hpp"

namespace squawk::workers::sync {

class SyncExternalTask final : public TaskHandler {
  public:
    nlohmann::json run(const jobs::ClaimedJob& job, TaskContext& context) override;
};

}  // namespace squawk::workers::sync
