// `noop` (POST /jobs/ping): finishes with an empty result, optionally after parking its fiber for
// `sleep_ms`, so operators check the job path end to end and benchmarks measure it alone.
#pragma once

#include "workers/tasks/task_handler.hpp"

#include <boost/fiber/operations.hpp>

#include <chrono>

namespace squawk::workers::generate {

class NoopTask final : public TaskHandler {
  public:
    nlohmann::json run(const jobs::ClaimedJob& job, TaskContext&) override {
        const auto sleep_ms = job.payload.value("sleep_ms", 0LL);
        if (sleep_ms > 0) boost::this_fiber::sleep_for(std::chrono::milliseconds(sleep_ms));
        return nlohmann::json::object();
    }
};

}  // namespace squawk::workers::generate
