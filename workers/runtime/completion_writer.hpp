// The completion side of one pool: fibers hand over outcomes; one thread writes them to MySQL in
// one transaction per batch, then acknowledges the stream entries and schedules retries in one
// pipelined Redis call. Outcomes not yet written stay here and are retried until they are.
#pragma once

#include "common/core/config/config.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "workers/runtime/batch_queue.hpp"

#include <chrono>
#include <string>
#include <thread>

namespace squawk::workers {

struct Completion {
    jobs::Outcome outcome;
    std::string entry_id;
};

class CompletionWriter {
  public:
    CompletionWriter(std::string pool, int batch, db::MysqlPool& mysql,
                     config::RedisSettings redis);
    ~CompletionWriter();

    void start();
    // Safe from fibers: the lock is never held across a wait.
    void push(Completion completion);
    // Writes everything handed over, trying for at most `flush_budget`, then ends the thread.
    void stop(std::chrono::milliseconds flush_budget);

  private:
    void loop();
    bool write_database(const std::vector<Completion>& batch);

    std::string pool_;
    db::MysqlPool& mysql_;
    config::RedisSettings redis_settings_;
    BatchQueue<Completion> queue_;
    std::thread thread_;
};

}  // namespace squawk::workers
