// The Boost.Fiber scheduling algorithm of a thread whose fibers call out over HTTP: while no
// fiber is ready the thread runs its own libcurl loop, so a transfer's answer resumes its fiber
// on the thread that sent it, without a hop to a curl thread and back.
#pragma once

#include "common/core/http/http_client.hpp"

#include <boost/fiber/algo/algorithm.hpp>
#include <boost/fiber/context.hpp>
#include <boost/fiber/scheduler.hpp>

#include <atomic>

namespace squawk::workers {

class HttpLoopScheduler final : public boost::fibers::algo::algorithm {
  public:
    // `http` was made with Loop::owner_thread and outlives the thread.
    explicit HttpLoopScheduler(http::Client& http) : http_(http) {}

    void awakened(boost::fibers::context* ctx) noexcept override;
    boost::fibers::context* pick_next() noexcept override;
    bool has_ready_fibers() const noexcept override;
    void suspend_until(std::chrono::steady_clock::time_point const& until) noexcept override;
    void notify() noexcept override;

  private:
    http::Client& http_;
    boost::fibers::scheduler::ready_queue_type ready_;
    // Set by the first notify() since the thread last woke: one wakeup per sleep is enough.
    std::atomic<bool> notified_{false};
};

}  // namespace squawk::workers
