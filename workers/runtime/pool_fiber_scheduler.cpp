#include "workers/runtime/pool_fiber_scheduler.hpp"

namespace squawk::workers {

void PoolFiberScheduler::awakened(boost::fibers::context* ctx) noexcept {
    if (ctx->is_context(boost::fibers::type::pinned_context)) {
        ctx->ready_link(local_);
        return;
    }
    ctx->detach();
    {
        std::lock_guard lock(shared_.mutex);
        shared_.ready.push_back(ctx);
    }
    shared_.wake.notify_one();
}

boost::fibers::context* PoolFiberScheduler::pick_next() noexcept {
    boost::fibers::context* ctx = nullptr;
    {
        std::lock_guard lock(shared_.mutex);
        if (!shared_.ready.empty()) {
            ctx = shared_.ready.front();
            shared_.ready.pop_front();
        }
    }
    if (ctx) {
        boost::fibers::context::active()->attach(ctx);
        return ctx;
    }
    if (!local_.empty()) {
        ctx = &local_.front();
        local_.pop_front();
    }
    return ctx;
}

bool PoolFiberScheduler::has_ready_fibers() const noexcept {
    std::lock_guard lock(shared_.mutex);
    return !shared_.ready.empty() || !local_.empty();
}

void PoolFiberScheduler::suspend_until(
    std::chrono::steady_clock::time_point const& until) noexcept {
    std::unique_lock lock(shared_.mutex);
    const auto woken = [&] { return notified_ || !shared_.ready.empty(); };
    if (until == std::chrono::steady_clock::time_point::max())
        shared_.wake.wait(lock, woken);
    else
        shared_.wake.wait_until(lock, until, woken);
    notified_ = false;
}

void PoolFiberScheduler::notify() noexcept {
    {
        std::lock_guard lock(shared_.mutex);
        notified_ = true;
    }
    // The waiters share one condition variable, so the one meant cannot be singled out.
    shared_.wake.notify_all();
}

}  // namespace squawk::workers
