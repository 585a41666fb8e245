// The worker's two retry schedules, both retry::doubling_backoff: a failed job waits base *
// 2^(attempt-1) capped at the maximum, shrunk by time_scale and jittered; a worker thread whose
// MySQL or Redis calls fail pauses 50 ms, doubling up to 2 s.
#pragma once

#include "common/domain/jobs/job_settings.hpp"

#include <chrono>

namespace squawk::workers {

// Delay before the attempt after `attempt` (1-based) failed, already scaled by time_scale.
std::chrono::microseconds backoff_delay(int attempt, const config::JobSettings& settings);

// backoff_delay() spread by retry::jittered().
std::chrono::microseconds jittered_backoff(int attempt, const config::JobSettings& settings);

// How long a worker thread waits before its next try after `failures` failed ones in a row
// against MySQL or Redis.
std::chrono::milliseconds outage_pause(int failures);

}  // namespace squawk::workers
