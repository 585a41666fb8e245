// `articles.generate`: asks the configured text provider for the article the payload describes
// and records its title, Markdown and HTML on the job's creation.
#pragma once

#include "workers/tasks/task_handler.hpp"

namespace squawk::workers::generate {

class ArticleTask final : public TaskHandler {
  public:
    nlohmann::json run(const jobs::ClaimedJob& job, TaskContext& context) override;
};

}  // namespace squawk::workers::generate
