#include "tests/support/wait.hpp"

#include <algorithm>
#include <thread>

namespace squawk::testing {

bool wait_until(const std::function<bool()>& condition, std::chrono::milliseconds timeout,
                std::chrono::milliseconds interval) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        if (condition()) return true;
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(interval);
    }
}

bool holds_throughout(const std::function<bool()>& condition, std::chrono::milliseconds window,
                      std::chrono::milliseconds interval) {
    const auto end = std::chrono::steady_clock::now() + window;
    while (true) {
        if (!condition()) return false;
        const auto now = std::chrono::steady_clock::now();
        if (now >= end) return true;
        std::this_thread::sleep_for(
            std::min<std::chrono::steady_clock::duration>(interval, end - now));
    }
}

}  // namespace squawk::testing
