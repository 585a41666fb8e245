// The retry schedule of failed jobs: base * 2^(attempt-1) capped at the maximum, shrunk by
// time_scale, with a little jitter so a burst of failures does not come back as one burst. And
// the pause of a worker thread whose MySQL or Redis calls fail.
#pragma once

#include "common/core/config/config.hpp"

#include <chrono>

namespace squawk::workers {

// Delay before the attempt after `attempt` (1-based) failed, already scaled by time_scale.
std::chrono::microseconds backoff_delay(int attempt, const config::JobSettings& settings);

// Spreads `delay` by up to +-10%; `unit_random` is uniform in [0, 1).
std::chrono::microseconds with_jitter(std::chrono::microseconds delay, double unit_random);

// with_jitter(backoff_delay(...)) with a random draw.
std::chrono::microseconds jittered_backoff(int attempt, const config::JobSettings& settings);

// How long a worker thread waits before its next try after `failures` failed ones in a row
// against MySQL or Redis: 50 ms, doubling up to 2 s.
std::chrono::milliseconds outage_pause(int failures);

}  // namespace squawk::workers
