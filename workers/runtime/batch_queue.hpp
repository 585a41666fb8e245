// The hand-over between a pool's fibers and the one thread that writes their outcomes in batches:
// fibers push and never wait; the writer takes whole batches, lingering briefly for one to fill,
// and on stop gets a deadline for what it still holds.
#pragma once

#include "common/core/db/sql_text.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <vector>

namespace squawk::workers {

template <class Item>
class BatchQueue {
  public:
    BatchQueue(size_t batch, std::chrono::milliseconds linger)
        : batch_(std::max<size_t>(1, batch)), linger_(linger) {}

    // Safe from fibers: the lock is never held across a wait.
    void push(Item item) {
        size_t size;
        {
            std::lock_guard lock(mutex_);
            queue_.push_back(std::move(item));
            size = queue_.size();
        }
        if (size == 1 || size >= batch_) ready_.notify_one();
    }

    // The writer gets until now + `flush_budget` for what it holds; a second stop keeps the first
    // deadline.
    void stop(std::chrono::milliseconds flush_budget) {
        {
            std::lock_guard lock(mutex_);
            if (!stopping_) flush_deadline_ = std::chrono::steady_clock::now() + flush_budget;
            stopping_ = true;
        }
        ready_.notify_all();
    }

    struct Taken {
        bool stopping;
        bool drained;  // nothing left in the queue
        std::chrono::steady_clock::time_point flush_deadline;
    };

    // For the writer. Waits for items unless it still `holds` unfinished work, lingers for a full
    // batch unless stopping or `retrying`, then tops `batch` up to the batch size. A fresh batch
    // is cut to a size from db::batch_rows, so statements keep few distinct shapes.
    Taken take(std::vector<Item>& batch, bool holds, bool retrying) {
        std::unique_lock lock(mutex_);
        if (!holds) ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (!stopping_ && queue_.size() < batch_ && !retrying)
            ready_.wait_for(lock, linger_, [&] { return stopping_ || queue_.size() >= batch_; });
        size_t take = std::min(batch_ - std::min(batch_, batch.size()), queue_.size());
        if (!stopping_ && batch.empty()) take = db::batch_rows(take, batch_);
        for (; take > 0; --take) {
            batch.push_back(std::move(queue_.front()));
            queue_.pop_front();
        }
        return {stopping_, queue_.empty(), flush_deadline_};
    }

  private:
    const size_t batch_;
    const std::chrono::milliseconds linger_;
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<Item> queue_;
    bool stopping_ = false;
    std::chrono::steady_clock::time_point flush_deadline_;
};

}  // namespace squawk::workers
