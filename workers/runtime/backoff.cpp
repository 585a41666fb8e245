#include "workers/runtime/backoff.hpp"

#include "common/core/time/clock.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <random>

namespace squawk::workers {

std::chrono::microseconds backoff_delay(int attempt, const config::JobSettings& settings) {
    // Past 2^40 the cap has long been reached; clamping keeps pow() finite.
    const int exponent = std::clamp(attempt - 1, 0, 40);
    const double seconds = std::min(settings.backoff_base_seconds * std::pow(2.0, exponent),
                                    settings.backoff_max_seconds);
    const auto real = std::chrono::microseconds(static_cast<long long>(seconds * 1e6));
    return time::scaled(real);
}

std::chrono::microseconds with_jitter(std::chrono::microseconds delay, double unit_random) {
    const double factor = 0.9 + 0.2 * std::clamp(unit_random, 0.0, 1.0);
    return std::chrono::microseconds(static_cast<long long>(delay.count() * factor));
}

std::chrono::microseconds jittered_backoff(int attempt, const config::JobSettings& settings) {
    // Called from fibers that may change threads, so no thread_local generator.
    static std::mutex mutex;
    static std::mt19937_64 generator{std::random_device{}()};
    double draw;
    {
        std::lock_guard lock(mutex);
        draw = std::uniform_real_distribution<double>(0.0, 1.0)(generator);
    }
    return with_jitter(backoff_delay(attempt, settings), draw);
}

std::chrono::milliseconds outage_pause(int failures) {
    return std::chrono::milliseconds(std::min(2000, 50 << std::clamp(failures, 0, 6)));
}

}  // namespace squawk::workers
