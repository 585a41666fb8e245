// `presentations.generate`: lays out the requested slides once and writes them three ways: a PPTX
// deck, a PDF of the same slides and one PNG thumbnail per slide, recorded as one creation.
#pragma once

#include "workers/tasks/task_handler.hpp"

namespace squawk::workers::generate {

class PresentationTask final : public TaskHandler {
  public:
    nlohmann::json run(const jobs::ClaimedJob& job, TaskContext& context) override;
};

}  // namespace squawk::workers::generate
