#include "common/core/retry/backoff.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <random>

namespace squawk::retry {
namespace {

// Far beyond any configured schedule, and far below what microseconds can count.
constexpr Seconds kLongest{100.0 * 365 * 24 * 3600};

}  // namespace

std::chrono::microseconds doubling_backoff(Seconds base, int failures, Seconds cap) {
    // 2^62 keeps the product finite for any base; the caps bring it down.
    const int doublings = std::clamp(failures - 1, 0, 62);
    const Seconds wait = std::min({base * std::exp2(doublings), cap, kLongest});
    return std::chrono::duration_cast<std::chrono::microseconds>(wait);
}

std::chrono::microseconds with_jitter(std::chrono::microseconds delay, double unit_random) {
    const double factor = 0.9 + 0.2 * std::clamp(unit_random, 0.0, 1.0);
    return std::chrono::microseconds(static_cast<long long>(delay.count() * factor));
}

std::chrono::microseconds jittered(std::chrono::microseconds delay) {
    // Called from fibers that may change threads, so no thread_local generator.
    static std::mutex mutex;
    static std::mt19937_64 generator{std::random_device{}()};
    double draw;
    {
        std::lock_guard lock(mutex);
        draw = std::uniform_real_distribution<double>(0.0, 1.0)(generator);
    }
    return with_jitter(delay, draw);
}

}  // namespace squawk::retry
