// `social.edit` (POST /social/posts/{id}/edit): replaces the text of each published target's
// message on its platform, then stores the new content on the post and each target's edited_at.
#pragma once

#include "workers/tasks/task_handler.hpp"

namespace squawk::workers::publish {

class EditTask final : public TaskHandler {
  public:
    nlohmann::json run(const jobs::ClaimedJob& job, TaskContext& context) override;
};

}  // namespace squawk::workers::publish
