// `shorts.generate`: transcribes an audio or video of the workspace, cuts clips at its pauses,
// and renders each as a 9:16 MP4 with captions burnt in the chosen style, as the creation.
#pragma once

#include "workers/tasks/task_handler.hpp"

namespace squawk::workers::generate {

class ShortTask final : public TaskHandler {
  public:
    nlohmann::json run(const jobs::ClaimedJob& job, TaskContext& context) override;
};

}  // namespace squawk::workers::generate
