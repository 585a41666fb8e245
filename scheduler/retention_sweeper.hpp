// Deletes what is kept only for a while: request log rows past request_log.retention_days and
// idempotency records past their lifetime, in bounded batches so no statement runs long.
#pragma once

#include "common/core/db/mysql_pool.hpp"

#include <chrono>

namespace squawk::scheduler {

class RetentionSweeper {
  public:
    RetentionSweeper(db::MysqlPool& mysql, int retention_days)
        : mysql_(mysql), retention_(std::chrono::hours(24) * retention_days) {}
    // Returns how many rows were deleted.
    long long run_once();

  private:
    db::MysqlPool& mysql_;
    std::chrono::hours retention_;
};

}  // namespace squawk::scheduler
