// The identity epoch as this process last read it from Redis, trusted for a short while after the
// read so that a busy unlimited route (GET /jobs/{job_id}) does not pay a Redis round trip per
// request. The same trade as a rate-limit lease: for at most `freshness` a busy process does not
// see a revocation made by another one; a quiet one reads the epoch on every request.
#pragma once

#include <chrono>
#include <mutex>
#include <optional>

namespace squawk::api {

class RecentEpoch {
  public:
    using Clock = std::chrono::steady_clock;

    // A zero `freshness` trusts nothing: every caller reads the epoch.
    explicit RecentEpoch(std::chrono::milliseconds freshness) : freshness_(freshness) {}

    // The epoch read less than `freshness` before `now`, if any.
    std::optional<long long> get(Clock::time_point now) {
        std::lock_guard lock(mutex_);
        if (!read_at_ || now - *read_at_ >= freshness_) return std::nullopt;
        return epoch_;
    }

    // `epoch` as read by a request that started to read it at `read_at`: the age counts from
    // before the read, so a slow read never extends the window.
    void saw(long long epoch, Clock::time_point read_at) {
        if (freshness_.count() <= 0) return;
        std::lock_guard lock(mutex_);
        if (read_at_ && *read_at_ >= read_at) return;
        epoch_ = epoch;
        read_at_ = read_at;
    }

  private:
    std::chrono::milliseconds freshness_;
    std::mutex mutex_;
    long long epoch_ = 0;
    std::optional<Clock::time_point> read_at_;
};

}  // namespace squawk::api
