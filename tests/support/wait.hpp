// Waiting in tests without bare sleeps: poll a condition until it holds, or check that it keeps
// holding for a window and fail the moment it breaks.
#pragma once

#include <chrono>
#include <functional>

namespace squawk::testing {

// Polls `condition` until it holds or `timeout` passes; returns its last value.
bool wait_until(const std::function<bool()>& condition, std::chrono::milliseconds timeout,
                std::chrono::milliseconds interval = std::chrono::milliseconds(50));

// Polls `condition` throughout `window`: false as soon as it fails once, true when it held to
// the end. For "nothing more happens" checks: a retry that must not come, a paused receiver.
bool holds_throughout(const std::function<bool()>& condition, std::chrono::milliseconds window,
                      std::chrono::milliseconds interval = std::chrono::milliseconds(20));

}  // namespace squawk::testing
