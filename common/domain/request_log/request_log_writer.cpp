#include "common/domain/request_log/request_log_writer.hpp"

#include "common/core/log/logger.hpp"

namespace squawk::request_log {
namespace {
// Rows per INSERT: large enough to amortise a round trip, small enough for one packet.
constexpr size_t kBatch = 500;
}  // namespace

RequestLogWriter::RequestLogWriter(db::MysqlPool& mysql, std::chrono::milliseconds flush_interval,
                                   size_t max_pending)
    : mysql_(mysql), flush_interval_(flush_interval), max_pending_(max_pending) {}

RequestLogWriter::~RequestLogWriter() {
    stop();
}

void RequestLogWriter::start() {
    thread_ = std::thread([this] { loop(); });
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
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
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

void RequestLogWriter::loop() {
    std::vector<Entry> batch;
    long long reported_drops = 0;
    for (;;) {
        bool stopping;
        {
            std::unique_lock lock(mutex_);
            wake_.wait_for(lock, flush_interval_, [&] { return stopping_; });
            stopping = stopping_;
        }
        for (;;) {
            {
                std::lock_guard lock(mutex_);
                while (batch.size() < kBatch && !pending_.empty()) {
                    batch.push_back(std::move(pending_.front()));
                    pending_.pop_front();
                }
            }
            if (batch.empty() || !write(batch)) break;
        }
        if (const long long drops = dropped_.load(); drops != reported_drops) {
            log::warn("request log entries dropped: the writer fell behind",
                      {{"dropped_total", drops}});
            reported_drops = drops;
        }
        if (stopping) return;
    }
}

}  // namespace squawk::request_log
