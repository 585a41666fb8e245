// Keeps the request log off the request path: handlers hand entries over (a lock and a push),
// and one thread inserts them many rows per statement. When MySQL falls behind, entries beyond
// `max_pending` are dropped and counted rather than slowing or failing requests.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/runtime/periodic_task.hpp"
#include "common/domain/request_log/request_log_repository.hpp"

#include <atomic>
#include <chrono>
#include <deque>
#include <mutex>

namespace squawk::request_log {

class RequestLogWriter {
  public:
    RequestLogWriter(db::MysqlPool& mysql, std::chrono::milliseconds flush_interval,
                     size_t max_pending);
    ~RequestLogWriter();
    RequestLogWriter(const RequestLogWriter&) = delete;
    RequestLogWriter& operator=(const RequestLogWriter&) = delete;

    void start();
    void push(Entry entry);
    // Writes what is pending (one last attempt) and ends the thread.
    void stop();
    long long dropped() const { return dropped_.load(); }

  private:
    // The task's body: inserts what is pending, a batch per statement, until a write fails.
    void write_pending();
    bool write(std::vector<Entry>& batch);

    db::MysqlPool& mysql_;
    size_t max_pending_;
    std::mutex mutex_;
    std::deque<Entry> pending_;
    std::atomic<long long> dropped_{0};
    // The task thread's own: entries taken but not yet written, and the drops last logged.
    std::vector<Entry> batch_;
    long long reported_drops_ = 0;
    runtime::PeriodicTask task_;  // last: its thread stops before the members it uses go
};

}  // namespace squawk::request_log
