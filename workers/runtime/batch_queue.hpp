// The hand-over between a pool's fibers and the periodic task that writes their outcomes in
// batches: fibers push and never wait; the writer takes whole batches, lingering briefly for one
// to fill. The writer's task is woken by whoever pushes into an empty queue.
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

    // Safe from fibers: the lock is never held across a wait. True when the queue was empty, so
    // the caller wakes the writer: one wake per batch, not per item.
    bool push(Item item) {
        size_t size;
        {
            std::lock_guard lock(mutex_);
            queue_.push_back(std::move(item));
            size = queue_.size();
        }
        if (size >= batch_) full_.notify_one();
        return size == 1;
    }

    // Ends any linger at once and for good: the writer then takes what is left without waiting.
    void stop() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        full_.notify_all();
    }

    // For the writer: with `linger`, waits briefly for a started batch to fill; then tops `batch`
    // up to the batch size. A fresh batch is cut to a size from db::batch_rows, so statements
    // keep few distinct shapes. Returns whether the queue is now empty.
    bool take(std::vector<Item>& batch, bool linger) {
        std::unique_lock lock(mutex_);
        if (linger && !stopping_ && !queue_.empty() && queue_.size() < batch_)
            full_.wait_for(lock, linger_, [&] { return stopping_ || queue_.size() >= batch_; });
        size_t take = std::min(batch_ - std::min(batch_, batch.size()), queue_.size());
        if (!stopping_ && batch.empty()) take = db::batch_rows(take, batch_);
        for (; take > 0; --take) {
            batch.push_back(std::move(queue_.front()));
            queue_.pop_front();
        }
        return queue_.empty();
    }

  private:
    const size_t batch_;
    const std::chrono::milliseconds linger_;
    std::mutex mutex_;
    std::condition_variable full_;
    std::deque<Item> queue_;
    bool stopping_ = false;
};

}  // namespace squawk::workers
