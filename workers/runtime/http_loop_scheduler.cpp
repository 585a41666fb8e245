#include "workers/runtime/http_loop_scheduler.hpp"

namespace squawk::workers {

void HttpLoopScheduler::awakened(boost::fibers::context* ctx) noexcept {
    ctx->ready_link(ready_);
}

boost::fibers::context* HttpLoopScheduler::pick_next() noexcept {
    if (ready_.empty()) return nullptr;
    auto* ctx = &ready_.front();
    ready_.pop_front();
    return ctx;
}

bool HttpLoopScheduler::has_ready_fibers() const noexcept {
    return !ready_.empty();
}

void HttpLoopScheduler::suspend_until(std::chrono::steady_clock::time_point const& until) noexcept {
    // Answers fulfil their fibers' promises from here; the dispatcher then runs those fibers.
    http_.run_once(until);
    // A notify() after this store wakes the next wait; one before it is seen by the dispatcher,
    // which takes fibers woken from other threads right after this returns.
    notified_.store(false);
}

void HttpLoopScheduler::notify() noexcept {
    if (!notified_.exchange(true)) http_.wake();
}

}  // namespace squawk::workers
