// Moves jobs whose backoff ended from each pool's delayed set into its ready stream.
#pragma once

#include "common/queue/job_queue.hpp"

#include <string_view>

namespace squawk::scheduler {

class DelayedMover {
  public:
    explicit DelayedMover(config::RedisSettings redis) : client_(std::move(redis)) {}
    // Returns how many jobs moved.
    long long run_once();
    // The same for one pool only, for pools that need a shorter cadence than the others.
    long long run_pool(std::string_view pool);

  private:
    redis::RedisClient client_;
};

}  // namespace squawk::scheduler
