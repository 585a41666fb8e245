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
    // A sleeper counted itself under the mutex taken above, so it is seen here or sees the push.
    if (shared_.sleepers.load() > 0) shared_.wake.notify_one();
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
    shared_.sleepers.fetch_add(1);
    const auto woken = [&] { return notified_.load() || !shared_.ready.empty(); };
    if (until == std::chrono::steady_clock::time_point::max())
        shared_.wake.wait(lock, woken);
    else
        shared_.wake.wait_until(lock, until, woken);
    shared_.sleepers.fetch_sub(1);
    notified_.store(false);
}

void PoolFiberScheduler::notify() noexcept {
    notified_.store(true);
    // Either the sleeper counted itself before this load and is woken below, or it counts itself
    // later and then finds `notified_` set before it waits (both sequentially consistent).
    if (shared_.sleepers.load() == 0) return;
    // Taken and dropped so a sleeper between its check and its wait cannot miss the notify.
    { std::lock_guard lock(shared_.mutex); }
    // The waiters share one condition variable, so the one meant cannot be singled out.
    shared_.wake.notify_all();
}

}  // namespace squawk::workers
