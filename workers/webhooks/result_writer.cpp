#include "workers/webhooks/result_writer.hpp"

#include "common/db/sql_text.hpp"
#include "common/log/logger.hpp"
#include "common/webhooks/delivery_repository.hpp"

#include <algorithm>

namespace squawk::workers::webhooks {

using squawk::webhooks::DeliveryRepository;
using squawk::webhooks::DeliveryResult;

namespace {
constexpr auto kLinger = std::chrono::milliseconds(10);
}  // namespace

ResultWriter::ResultWriter(int batch, db::MysqlPool& mysql, int failing_threshold)
    : batch_(static_cast<size_t>(std::max(1, batch))),
      mysql_(mysql),
      failing_threshold_(failing_threshold) {}

ResultWriter::~ResultWriter() {
    stop(std::chrono::milliseconds(0));
}

void ResultWriter::start() {
    thread_ = std::thread([this] { loop(); });
}

void ResultWriter::push(DeliveryResult result) {
    size_t size;
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(std::move(result));
        size = queue_.size();
    }
    if (size == 1 || size >= batch_) ready_.notify_one();
}

void ResultWriter::stop(std::chrono::milliseconds flush_budget) {
    {
        std::lock_guard lock(mutex_);
        if (!stopping_) flush_deadline_ = std::chrono::steady_clock::now() + flush_budget;
        stopping_ = true;
    }
    ready_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void ResultWriter::loop() {
    std::vector<DeliveryResult> unwritten;
    int failures = 0;
    for (;;) {
        bool stopping;
        std::chrono::steady_clock::time_point deadline;
        {
            std::unique_lock lock(mutex_);
            if (unwritten.empty()) ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            if (!stopping_ && queue_.size() < batch_ && failures == 0)
                ready_.wait_for(lock, kLinger,
                                [&] { return stopping_ || queue_.size() >= batch_; });
            size_t take = std::min(batch_ - unwritten.size(), queue_.size());
            if (!stopping_ && unwritten.empty()) take = db::batch_rows(take, batch_);
            for (; take > 0; --take) {
                unwritten.push_back(std::move(queue_.front()));
                queue_.pop_front();
            }
            stopping = stopping_;
            deadline = flush_deadline_;
            if (stopping && unwritten.empty() && queue_.empty()) return;
        }
        if (stopping && failures > 0 && std::chrono::steady_clock::now() >= deadline) {
            log::error(
                "giving up on unwritten delivery results at shutdown; their leases run out "
                "and they are sent again",
                {{"results", unwritten.size()}});
            return;
        }
        try {
            mysql_.transaction([&](db::Session& s) {
                DeliveryRepository::record(s, unwritten, failing_threshold_);
            });
            unwritten.clear();
            failures = 0;
        } catch (const std::exception& e) {
            log::warn("could not record delivery results; keeping them to retry",
                      {{"count", unwritten.size()}, {"error", e.what()}});
            std::this_thread::sleep_for(
                std::chrono::milliseconds(std::min(2000, 50 << std::min(failures++, 6))));
        }
    }
}

}  // namespace squawk::workers::webhooks
