// Recovers lost work, in two passes the runtime runs on their own cadences:
// - reclaim_expired: running jobs whose lease ran out (their worker died) go back to their queue,
//   or to the dead letters after their last attempt; stream entries no live consumer
//   acknowledged within a lease are dropped, since MySQL decides what runs again.
// - enqueue_stale: jobs that sit queued in MySQL without being picked up (their stream add
//   failed or their entry was dropped), and retrying jobs long past their due time, are enqueued
//   again.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/queue/job_queue.hpp"

#include <chrono>

namespace squawk::scheduler {

class LostWork {
  public:
    LostWork(db::MysqlPool& mysql, config::RedisSettings redis, std::chrono::milliseconds lease,
             std::chrono::seconds stale_after)
        : mysql_(mysql),
          reclaim_client_(redis),
          stale_client_(std::move(redis)),
          lease_(lease),
          stale_after_(stale_after) {}
    // Each returns how many jobs were enqueued again.
    long long reclaim_expired();
    long long enqueue_stale();

  private:
    db::MysqlPool& mysql_;
    // The passes run on task threads of their own, so each has its own connection.
    redis::RedisClient reclaim_client_;
    redis::RedisClient stale_client_;
    std::chrono::milliseconds lease_;
    std::chrono::seconds stale_after_;
};

}  // namespace squawk::scheduler
