// Rebuilds every pool's queues from MySQL when Redis lost them (the epoch key is gone): queued
// jobs go to their streams, retrying ones back to the delayed sets at their due time.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/queue/job_queue.hpp"

namespace squawk::scheduler {

class QueueRebuilder {
  public:
    QueueRebuilder(db::MysqlPool& mysql, config::RedisSettings redis)
        : mysql_(mysql), client_(std::move(redis)) {}
    // Rebuilds only when the epoch key is missing; returns whether it did.
    bool run_once();

  private:
    db::MysqlPool& mysql_;
    redis::RedisClient client_;
};

}  // namespace squawk::scheduler
