// Accepting a job: the row is committed as queued first (with the wallet reservation that pays for
// it, in the same transaction), then its id goes to the pool's stream. A failed stream add leaves
// the job queued in MySQL, where the scheduler's reconciler finds it.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/redis/redis_pool.hpp"
#include "common/domain/billing/wallet.hpp"
#include "common/domain/jobs/job.hpp"
#include "common/domain/jobs/job_settings.hpp"
#include "common/domain/jobs/job_types.hpp"

#include <functional>

namespace squawk::jobs {

class JobSubmitter {
  public:
    JobSubmitter(db::MysqlPool& mysql, redis::RedisPool& redis, config::JobSettings settings)
        : mysql_(mysql), redis_(redis), settings_(settings) {}

    // `payment`: what the job reserves from the wallet (settled when it completes, refunded if it
    // fails on our side); 402 INSUFFICIENT_BALANCE, with nothing written, when it cannot be paid.
    // The answer's reserved_units says what was reserved.
    Job submit(long long workspace_id, const JobType& type, nlohmann::json payload, bool is_test,
               const billing::Reservation* payment = nullptr);
    // Also runs `alongside` in the transaction that writes the job row, after it: a feature's
    // checks and its link to the job commit with the row, and a throw leaves neither written.
    Job submit_with(long long workspace_id, const JobType& type, nlohmann::json payload,
                    bool is_test, const std::function<void(db::Session&, const Job&)>& alongside,
                    const billing::Reservation* payment = nullptr);

  private:
    Job write(long long workspace_id, const JobType& type, nlohmann::json payload, bool is_test,
              const billing::Reservation* payment,
              const std::function<void(db::Session&, const Job&)>& alongside);

    db::MysqlPool& mysql_;
    redis::RedisPool& redis_;
    config::JobSettings settings_;
};

}  // namespace squawk::jobs
