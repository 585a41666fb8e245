// Enqueues jobs that sit queued in MySQL without being picked up (their stream add failed or
// their entry was dropped), and retrying jobs long past their due time.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/queue/job_queue.hpp"

#include <chrono>

namespace squawk::scheduler {

class StaleSweeper {
  public:
    StaleSweeper(db::MysqlPool& mysql, config::RedisSettings redis,
                 std::chrono::seconds stale_after)
        : mysql_(mysql), client_(std::move(redis)), stale_after_(stale_after) {}
    // Returns how many jobs were enqueued again.
    long long run_once();

  private:
    db::MysqlPool& mysql_;
    redis::RedisClient client_;
    std::chrono::seconds stale_after_;
};

}  // namespace squawk::scheduler
