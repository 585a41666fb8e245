// How a pool's batch writers (job outcomes, delivery results) run as periodic tasks: woken by
// the first item of a batch, idle otherwise, and paused like any worker thread during an outage.
#pragma once

#include "common/core/runtime/periodic_task.hpp"

#include <string>

namespace squawk::workers {

// Failures back off as outage_pause does (50 ms doubling up to 2 s); the interval is only a
// safety net, since every batch wakes the task. The task flushes on stop.
inline runtime::PeriodicTask::Options writer_task_options(std::string name) {
    using std::chrono::milliseconds;
    return {.name = std::move(name),
            .interval = milliseconds(1000),
            .max_backoff = milliseconds(2000),
            .first_retry = milliseconds(50),
            .flush_on_stop = true};
}

}  // namespace squawk::workers
