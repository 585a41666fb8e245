// Retry-with-backoff: how long to wait before trying again after failures. One doubling rule
// serves failed jobs, webhook deliveries and worker threads facing a MySQL or Redis outage.
#pragma once

#include <chrono>
#include <limits>

namespace squawk::retry {

using Seconds = std::chrono::duration<double>;

inline constexpr Seconds kNoCap{std::numeric_limits<double>::infinity()};

// Wait after the `failures`-th failure in a row (from 1; lower counts as 1): base, 2 base,
// 4 base, ... never more than `cap` nor about a century, so no count overflows. Not scaled by
// time_scale: callers whose schedule is business time apply time::scaled.
std::chrono::microseconds doubling_backoff(Seconds base, int failures, Seconds cap = kNoCap);

// Spreads `delay` by up to +-10%; `unit_random` is uniform in [0, 1).
std::chrono::microseconds with_jitter(std::chrono::microseconds delay, double unit_random);

// with_jitter() with a random draw, so a burst of failures does not come back as one burst.
std::chrono::microseconds jittered(std::chrono::microseconds delay);

}  // namespace squawk::retry
