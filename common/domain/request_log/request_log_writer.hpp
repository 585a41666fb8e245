// Keeps the request log off the request path: handlers hand entries over (a lock and a push),
// and one thread inserts them many rows per statement. When MySQL falls behind, entries beyond
// `max_pending` are dropped and counted rather than slowing or failing requests.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/request_log/request_log_repository.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

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
    void loop();
    bool write(std::vector<Entry>& batch);

    db::MysqlPool& mysql_;
    std::chrono::milliseconds flush_interval_;
    size_t max_pending_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Entry> pending_;
    bool stopping_ = false;
    std::atomic<long long> dropped_{0};
    std::thread thread_;
};

}  // namespace squawk::request_log
