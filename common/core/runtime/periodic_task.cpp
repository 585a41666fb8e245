#include "common/core/runtime/periodic_task.hpp"

#include "common/core/log/logger.hpp"

#include <algorithm>

namespace squawk::runtime {

PeriodicTask::PeriodicTask(Options options, Body body, Gate gate)
    : options_(std::move(options)), body_(std::move(body)), gate_(std::move(gate)) {}

PeriodicTask::~PeriodicTask() {
    stop();
}

void PeriodicTask::start() {
    if (thread_.joinable()) return;
    thread_ = std::thread([this] { loop(); });
}

void PeriodicTask::wake() {
    {
        std::lock_guard lock(mutex_);
        woken_ = true;
    }
    wake_.notify_one();
}

bool PeriodicTask::stop(std::chrono::milliseconds flush_budget) {
    {
        std::lock_guard lock(mutex_);
        if (!stopping_) flush_deadline_ = std::chrono::steady_clock::now() + flush_budget;
        stopping_ = true;
    }
    wake_.notify_all();
    if (!thread_.joinable()) return true;
    thread_.join();
    return flushed_;
}

std::chrono::milliseconds PeriodicTask::backoff() const {
    const auto first =
        options_.first_retry.count() > 0 ? options_.first_retry : options_.interval * 2;
    return std::min(first * (1 << std::min(consecutive_failures_ - 1, 10)), options_.max_backoff);
}

bool PeriodicTask::run_once() {
    try {
        body_();
        ++runs_;
        if (consecutive_failures_ > 0)
            log::info("periodic task recovered", {{"task", options_.name}});
        consecutive_failures_ = 0;
        return true;
    } catch (const std::exception& e) {
        ++failures_;
        if (consecutive_failures_ == 0 || consecutive_failures_ % 10 == 0)
            log::warn("periodic task failed; backing off",
                      {{"task", options_.name},
                       {"error", e.what()},
                       {"consecutive_failures", consecutive_failures_ + 1}});
        ++consecutive_failures_;
        return false;
    }
}

void PeriodicTask::loop() {
    for (;;) {
        auto wait = options_.interval;
        if ((!gate_ || gate_()) && !run_once()) wait = backoff();
        std::unique_lock lock(mutex_);
        wake_.wait_for(lock, wait,
                       [&] { return stopping_ || (woken_ && consecutive_failures_ == 0); });
        if (stopping_) break;
        woken_ = false;
    }
    if (options_.flush_on_stop) {
        std::unique_lock lock(mutex_);
        const auto deadline = flush_deadline_;
        lock.unlock();
        flushed_ = flush(deadline);
    }
}

bool PeriodicTask::flush(std::chrono::steady_clock::time_point deadline) {
    for (;;) {
        if (run_once()) return true;
        const auto pause = backoff();
        if (std::chrono::steady_clock::now() + pause > deadline) return false;
        std::this_thread::sleep_for(pause);
    }
}

}  // namespace squawk::runtime
