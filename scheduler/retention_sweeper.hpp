// Deletes what is kept only for a while: request log rows past request_log.retention_days,
// idempotency records past their lifetime and upload URLs that expired unconfirmed (with any bytes
// they received), in bounded batches so no statement runs long.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/media/media_settings.hpp"

#include <chrono>

namespace squawk::scheduler {

class RetentionSweeper {
  public:
    RetentionSweeper(db::MysqlPool& mysql, int retention_days, const config::MediaSettings& media)
        : mysql_(mysql), retention_(std::chrono::hours(24) * retention_days), media_(media) {}
    // Returns how many rows were deleted.
    long long run_once();

  private:
    db::MysqlPool& mysql_;
    std::chrono::hours retention_;
    const config::MediaSettings& media_;
};

}  // namespace squawk::scheduler
