// `noop`: finishes at once with an empty result, so benchmarks measure the job path itself.
#pragma once

#include "workers/tasks/task_handler.hpp"

namespace squawk::workers::generate {

class NoopTask final : public TaskHandler {
public:
    nlohmann::json run(const jobs::ClaimedJob&, TaskContext&) override {
        return nlohmann::json::object();
    }
};

}  // namespace squawk::workers::generate
