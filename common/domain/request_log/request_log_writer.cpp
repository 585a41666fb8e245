#include "common/domain/request_log/request_log_writer.hpp"

#include "common/core/log/logger.hpp"

#include <algorithm>

namespace squawk::request_log {
namespace {
// Rows per INSERT: large enough to amortise a round trip, small enough for one packet.
constexpr size_t kBatch = 500;
}  // namespace

RequestLogWriter::RequestLogWriter(db::MysqlPool& mysql, std::chrono::milliseconds flush_interval,
                                   size_t max_pending)
    : mysql_(mysql),
      max_pending_(max_pending),
      task_({.name = "request-log-writer", .interval = flush_interval, .flush_on_stop = true},
            [this] { write_pending(); }) {}

RequestLogWriter::~RequestLogWriter() {
    stop();
}

void RequestLogWriter::start() {
    task_.start();
}

void RequestLogWriter::push(Entry entry) {
    std::lock_guard lock(mutex_);
    if (pending_.size() >= max_pending_) {
        ++dropped_;
        return;
    }
    pending_.push_back(std::move(entry));
}

void RequestLogWriter::stop() {
    task_.stop();
}

bool RequestLogWriter::write(std::vector<Entry>& batch) {
    try {
        mysql_.run([&](db::Session& s) { RequestLogRepository::insert_many(s, batch); });
        batch.clear();
        return true;
    } catch (const std::exception& e) {
        log::warn("could not write the request log; keeping the entries to retry",
                  {{"entries", batch.size()}, {"error", e.what()}});
        return false;
    }
}

void RequestLogWriter::write_pending() {
    for (;;) {
        {
            // A batch kept from a failed write is retried as it is.
            std::lock_guard lock(mutex_);
            if (batch_.empty()) {
                for (size_t n = std::min(pending_.size(), kBatch); n > 0; --n) {
                    batch_.push_back(std::move(pending_.front()));
                    pending_.pop_front();
                }
            }
        }
        if (batch_.empty() || !write(batch_)) break;
    }
    if (const long long drops = dropped_.load(); drops != reported_drops_) {
        log::warn("request log entries dropped: the writer fell behind",
                  {{"dropped_total", drops}});
        reported_drops_ = drops;
    }
}

}  // namespace squawk::request_log
