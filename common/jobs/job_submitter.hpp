// Accepting a job: the row is committed as queued first, then its id goes to the pool's stream.
// A failed stream add leaves the job queued in MySQL, where the scheduler's reconciler finds it.
#pragma once

#include "common/config/config.hpp"
#include "common/db/mysql_pool.hpp"
#include "common/jobs/job.hpp"
#include "common/jobs/job_types.hpp"
#include "common/redis/redis_pool.hpp"

namespace squawk::jobs {

class JobSubmitter {
  public:
    JobSubmitter(db::MysqlPool& mysql, redis::RedisPool& redis, config::JobSettings settings)
        : mysql_(mysql), redis_(redis), settings_(settings) {}

    // `charge_ledger_id`: the wallet charge that paid for it, refunded if the job fails.
    Job submit(long long workspace_id, const JobType& type, nlohmann::json payload, bool is_test,
               std::optional<long long> charge_ledger_id = std::nullopt);

  private:
    db::MysqlPool& mysql_;
    redis::RedisPool& redis_;
    config::JobSettings settings_;
};

}  // namespace squawk::jobs
