// Deletes what is kept only for a while: request log rows past request_log.retention_days,
// idempotency records past their lifetime and upload URLs that expired unconfirmed (with any bytes
// they received), in bounded batches so no statement runs long.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/core/storage/object_store.hpp"

#include <chrono>

namespace squawk::scheduler {

class RetentionSweeper {
  public:
    // `config` gives request_log.retention_days and what the media sweep needs.
    RetentionSweeper(db::MysqlPool& mysql, const config::Config& config,
                     storage::ObjectStore& store);
    // Returns how many rows were deleted.
    long long run_once();

  private:
    db::MysqlPool& mysql_;
    const config::Config& config_;
    std::chrono::hours retention_;
    storage::ObjectStore& store_;
};

}  // namespace squawk::scheduler
