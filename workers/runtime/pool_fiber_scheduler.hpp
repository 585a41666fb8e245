// The Boost.Fiber scheduling algorithm of one worker pool: the pool's threads share one ready
// queue, so an idle thread runs fibers another thread woke. Boost's own work_stealing and
// shared_work keep their queues in static members (one group per process, never re-creatable),
// which cannot serve several pools in one process nor a runtime started twice in a test.
#pragma once

#include <boost/fiber/algo/algorithm.hpp>
#include <boost/fiber/context.hpp>
#include <boost/fiber/scheduler.hpp>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>

namespace squawk::workers {

// Shared by the threads of one pool; outlives every thread that uses it.
struct SharedReadyQueue {
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<boost::fibers::context*> ready;
    // Threads waiting on `wake`. Wakers skip the mutex and the notify when none is, so a busy
    // pool pays nothing for the curl thread's stream of completions.
    std::atomic<int> sleepers{0};
};

class PoolFiberScheduler final : public boost::fibers::algo::algorithm {
  public:
    explicit PoolFiberScheduler(SharedReadyQueue& shared) : shared_(shared) {}

    void awakened(boost::fibers::context* ctx) noexcept override;
    boost::fibers::context* pick_next() noexcept override;
    bool has_ready_fibers() const noexcept override;
    void suspend_until(std::chrono::steady_clock::time_point const& until) noexcept override;
    void notify() noexcept override;

  private:
    SharedReadyQueue& shared_;
    // Main and dispatcher contexts are pinned to their thread.
    boost::fibers::scheduler::ready_queue_type local_;
    std::atomic<bool> notified_{false};
};

}  // namespace squawk::workers
