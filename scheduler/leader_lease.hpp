// "One scheduler leads at a time" through a Redis key: SET NX PX to take it, a compare-and-extend
// script to keep it, compare-and-delete to hand it over. Leadership lapses on its own when it
// could not be confirmed within the lease, so a partitioned leader stops before another starts.
#pragma once

#include "common/core/redis/redis_client.hpp"

#include <atomic>
#include <chrono>
#include <string>

namespace squawk::scheduler {

class LeaderLease {
  public:
    LeaderLease(config::RedisSettings settings, std::chrono::milliseconds lease, std::string owner);

    // Takes the lease when free, extends it when ours; call every lease/3. Throws RedisUnavailable.
    void refresh();
    bool is_leader() const;
    // Deletes the key if we still hold it, so a successor need not wait for expiry.
    void release();

    const std::string& owner() const { return owner_; }
    std::string key() const { return client_.key("scheduler:leader"); }

  private:
    redis::RedisClient client_;
    std::chrono::milliseconds lease_;
    std::string owner_;
    std::atomic<bool> leading_{false};
    std::atomic<long long> valid_until_ns_{0};  // steady clock
};

}  // namespace squawk::scheduler
