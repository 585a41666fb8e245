// Moves jobs whose backoff ended, or whose time comes within their pool's lead, from each pool's
// delayed set into its ready stream.
#pragma once

#include "common/core/daemon/worker_settings.hpp"
#include "common/core/queue/job_queue.hpp"

#include <map>
#include <string_view>

namespace squawk::scheduler {

class DelayedMover {
  public:
    DelayedMover(config::RedisSettings redis, const config::WorkerSettings& workers)
        : client_(std::move(redis)), workers_(workers) {}
    // Returns how many jobs moved.
    long long run_once();
    // The same for one pool only, for pools that need a shorter cadence than the others.
    long long run_pool(std::string_view pool);

  private:
    redis::RedisClient client_;
    const config::WorkerSettings& workers_;
};

}  // namespace squawk::scheduler
