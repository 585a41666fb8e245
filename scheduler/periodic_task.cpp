#include "scheduler/periodic_task.hpp"

#include "common/core/log/logger.hpp"

#include <algorithm>

namespace squawk::scheduler {

PeriodicTask::PeriodicTask(Options options, Body body, Gate gate)
    : options_(std::move(options)), body_(std::move(body)), gate_(std::move(gate)) {}

PeriodicTask::~PeriodicTask() {
    stop();
}

void PeriodicTask::start() {
    if (thread_.joinable()) return;
    thread_ = std::thread([this] { loop(); });
}

void PeriodicTask::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void PeriodicTask::loop() {
    int consecutive_failures = 0;
    for (;;) {
        auto wait = options_.interval;
        if (!gate_ || gate_()) {
            try {
                body_();
                ++runs_;
                if (consecutive_failures > 0)
                    log::info("periodic task recovered", {{"task", options_.name}});
                consecutive_failures = 0;
            } catch (const std::exception& e) {
                ++failures_;
                if (consecutive_failures == 0 || consecutive_failures % 10 == 0)
                    log::warn("periodic task failed; backing off",
                              {{"task", options_.name},
                               {"error", e.what()},
                               {"consecutive_failures", consecutive_failures + 1}});
                ++consecutive_failures;
                const std::chrono::milliseconds longest =
                    std::max(options_.max_backoff, options_.interval);
                const std::chrono::milliseconds doubled =
                    options_.interval * (1 << std::min(consecutive_failures, 10));
                wait = std::min(doubled, longest);
            }
        }
        std::unique_lock lock(mutex_);
        if (wake_.wait_for(lock, wait, [&] { return stopping_; })) return;
    }
}

}  // namespace squawk::scheduler
