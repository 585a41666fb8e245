// `images.generate`: renders the card or the prompted picture the payload describes with the
// provider the API chose for it, and records the file as the job's creation.
#pragma once

#include "workers/tasks/task_handler.hpp"

namespace squawk::workers::generate {

class ImageTask final : public TaskHandler {
  public:
    nlohmann::json run(const jobs::ClaimedJob& job, TaskContext& context) override;
};

}  // namespace squawk::workers::generate
