// Recovers the work of dead workers: running jobs whose lease ran out go back to their queue (or
// to the dead letters after their last attempt), and stream entries no live consumer
// acknowledged within a lease are dropped, since MySQL decides what runs again.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/queue/job_queue.hpp"

#include <chrono>

namespace squawk::scheduler {

class Reclaimer {
  public:
    Reclaimer(db::MysqlPool& mysql, config::RedisSettings redis, std::chrono::milliseconds lease)
        : mysql_(mysql), client_(std::move(redis)), lease_(lease) {}
    // Returns how many jobs were requeued.
    long long run_once();

  private:
    db::MysqlPool& mysql_;
    redis::RedisClient client_;
    std::chrono::milliseconds lease_;
};

}  // namespace squawk::scheduler
