// The tasks that change a published post's messages on their platforms (message_changes.hpp holds
// what they share):
// - `social.edit` (POST /social/posts/{id}/edit) replaces the text of each published target's
//   message, then stores the new content on the post and each target's edited_at;
// - `social.unpublish` (DELETE /social/posts/{id} of a published post) deletes each published
//   target's message; the targets end `unpublished`, then the post.
#pragma once

#include "workers/tasks/task_handler.hpp"

namespace squawk::workers::publish {

class EditTask final : public TaskHandler {
  public:
    nlohmann::json run(const jobs::ClaimedJob& job, TaskContext& context) override;
};

class UnpublishTask final : public TaskHandler {
  public:
    nlohmann::json run(const jobs::ClaimedJob& job, TaskContext& context) override;
};

}  // namespace squawk::workers::publish
