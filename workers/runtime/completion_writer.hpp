// The completion side of one pool: fibers hand over outcomes; one thread writes them to MySQL in
// one transaction per batch, then acknowledges the stream entries and schedules retries in one
// pipelined Redis call. Outcomes not yet written stay here and are retried until they are.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/queue/job_queue.hpp"
#include "common/core/redis/redis_client.hpp"
#include "common/core/runtime/periodic_task.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "workers/runtime/batch_queue.hpp"

#include <chrono>
#include <string>
#include <vector>

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
    // What MySQL holds and Redis does not yet: entries to acknowledge and retries to schedule.
    struct RedisSettlement {
        std::vector<std::string> acks;
        std::vector<queue::Delayed> retries;
        bool empty() const { return acks.empty() && retries.empty(); }
    };

    // The task's body: writes and settles batches until the queue is empty; throws, keeping
    // what is unfinished, when MySQL or Redis fails.
    void write_pending();
    void write_database();
    void settle_redis();

    std::string pool_;
    db::MysqlPool& mysql_;
    redis::RedisClient redis_;   // the task thread's own
    queue::JobQueue job_queue_;  // over redis_
    BatchQueue<Completion> queue_;
    std::vector<Completion> unwritten_;  // the task thread's own
    RedisSettlement unsettled_;          // the task thread's own
    runtime::PeriodicTask task_;         // last: its thread stops before the members it uses go
};

}  // namespace squawk::workers
