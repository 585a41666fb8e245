// Records delivery outcomes in batches: one transaction writes the attempts, the next states and
// the endpoints' failure runs for up to `batch` deliveries. Unwritten results are kept and retried.
#pragma once

#include "common/config/config.hpp"
#include "common/db/mysql_pool.hpp"
#include "common/webhooks/delivery.hpp"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

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
    void loop();

    size_t batch_;
    db::MysqlPool& mysql_;
    int failing_threshold_;
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<squawk::webhooks::DeliveryResult> queue_;
    bool stopping_ = false;
    std::chrono::steady_clock::time_point flush_deadline_;
    std::thread thread_;
};

}  // namespace squawk::workers::webhooks
