// Records delivery outcomes in batches: one transaction writes the attempts, the next states and
// the endpoints' failure runs for up to `batch` deliveries. Unwritten results are kept and retried.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/runtime/periodic_task.hpp"
#include "common/domain/webhooks/delivery.hpp"
#include "workers/runtime/batch_queue.hpp"

#include <chrono>
#include <vector>

namespace squawk::workers::webhooks {

class ResultWriter {
  public:
    ResultWriter(int batch, db::MysqlPool& mysql, int failing_threshold);
    ~ResultWriter();

    void start();
    // Safe from fibers: the lock is never held across a wait.
    void push(squawk::webhooks::DeliveryResult result);
    // Writes what was handed over, trying for at most `flush_budget`, then ends the thread.
    void stop(std::chrono::milliseconds flush_budget);

  private:
    // The task's body: writes batches until the queue is empty; throws, keeping the batch, when
    // a write fails.
    void write_pending();

    db::MysqlPool& mysql_;
    int failing_threshold_;
    BatchQueue<squawk::webhooks::DeliveryResult> queue_;
    std::vector<squawk::webhooks::DeliveryResult> unwritten_;  // the task thread's own
    runtime::PeriodicTask task_;  // last: its thread stops before the members it uses go
};

}  // namespace squawk::workers::webhooks
