// `social.unpublish` (DELETE /social/posts/{id} of a published post): deletes each published
// target's message from its platform; the targets end `unpublished`, then the post.
#pragma once

#include "workers/tasks/task_handler.hpp"

namespace squawk::workers::publish {

class UnpublishTask final : public TaskHandler {
  public:
    nlohmann::json run(const jobs::ClaimedJob& job, TaskContext& context) override;
};

}  // namespace squawk::workers::publish
