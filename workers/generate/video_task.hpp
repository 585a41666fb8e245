// `videos.generate`: narrates each scene with the configured speech provider, pictures it with
// the scene's image or a rendered title card, and composes one MP4 with ffmpeg as the creation.
#pragma once

#include "workers/tasks/task_handler.hpp"

namespace squawk::workers::generate {

class VideoTask final : public TaskHandler {
  public:
    nlohmann::json run(const jobs::ClaimedJob& job, TaskContext& context) override;
};

}  // namespace squawk::workers::generate
