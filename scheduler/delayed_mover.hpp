// Moves jobs whose backoff ended from each pool's delayed set into its ready stream.
#pragma once

#include "common/queue/job_queue.hpp"

namespace squawk::scheduler {

class DelayedMover {
  public:
    explicit DelayedMover(config::RedisSettings redis) : client_(std::move(redis)) {}
    // Returns how many jobs moved.
    long long run_once();

  private:
    redis::RedisClient client_;
};

}  // namespace squawk::scheduler
