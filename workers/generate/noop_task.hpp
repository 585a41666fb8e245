// `noop` (POST /jobs/ping): finishes with when it ran (`ran_at`), optionally after parking its fiber
// for `sleep_ms`, so operators check the job path end to end and see how long a job waited for a
// worker (`created_at` to `ran_at`), and benchmarks measure it alone.
#pragma once

#include "common/core/time/clock.hpp"
#include "workers/tasks/task_handler.hpp"

#include <boost/fiber/operations.hpp>

#include <chrono>

namespace squawk::workers::generate {

class NoopTask final : public TaskHandler {
  public:
    nlohmann::json run(const jobs::ClaimedJob& job, TaskContext&) override {
        const auto ran_at = time::format_iso8601(time::now());
        const auto sleep_ms = job.payload.value("sleep_ms", 0LL);
        if (sleep_ms > 0) boost::this_fiber::sleep_for(std::chrono::milliseconds(sleep_ms));
        return {{"ran_at", ran_at}};
    }
};

}  // namespace squawk::workers::generate
