#include "workers/runtime/backoff.hpp"

#include "common/core/retry/backoff.hpp"
#include "common/core/time/clock.hpp"

namespace squawk::workers {

std::chrono::microseconds backoff_delay(int attempt, const config::JobSettings& settings) {
    return time::scaled(retry::doubling_backoff(retry::Seconds(settings.backoff_base_seconds),
                                                attempt,
                                                retry::Seconds(settings.backoff_max_seconds)));
}

std::chrono::microseconds jittered_backoff(int attempt, const config::JobSettings& settings) {
    return retry::jittered(backoff_delay(attempt, settings));
}

std::chrono::milliseconds outage_pause(int failures) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(retry::doubling_backoff(
        std::chrono::milliseconds(50), failures + 1, std::chrono::seconds(2)));
}

}  // namespace squawk::workers
