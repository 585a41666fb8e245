// Tokens a busy bucket spends without a Redis round trip each. The shared counter grants a
// batch in one check and this process spends it for at most `lifetime`; a quiet bucket, or one
// whose limit is small, asks for one token per request and stays exact. Unspent tokens are handed
// back with the bucket's next check. What a lease trades: for at most `lifetime` a busy bucket
// does not see an identity change (a revoked key) made by another process.
#pragma once

#include "common/core/rate_limit/rate_limiter.hpp"

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace squawk::rate_limit {

class TokenLeases {
  public:
    using Clock = std::chrono::steady_clock;

    // A zero `lifetime` turns leases off: every check asks Redis for one token.
    explicit TokenLeases(std::chrono::milliseconds lifetime) : lifetime_(lifetime) {}

    // A decision paid from this process's lease on `bucket` granted under `epoch`, or nothing
    // when there is none to spend: then ask(), check, and keep() what was granted.
    std::optional<Decision> spend(const std::string& bucket, long long epoch,
                                  Clock::time_point now);
    // What the next check of `bucket` asks for: its recent demand, and the lapsed lease's rest.
    Ask ask(const std::string& bucket, Clock::time_point now);
    // Holds what `granted` gave beyond the request that asked for it.
    void keep(const std::string& bucket, long long epoch, const Decision& granted,
              Clock::time_point now);

    // At most a hundredth of a minute's limit is held by one lease, and never more than this.
    static constexpr long long kMaxLease = 256;
    // Buckets held at most (one per workspace or key that called lately). Past it the idle ones
    // are forgotten, or all when most are busy; a forgotten lease's unspent tokens stay counted
    // by Redis, so a limit can only turn stricter, for one window at most.
    static constexpr size_t kMaxBuckets = 100000;

    size_t size();

  private:
    struct Bucket {
        long long tokens = 0;  // granted and not yet spent
        long long epoch = 0;
        Decision grant;  // the check that granted them
        Clock::time_point expires{};
        long long demand = 0;       // requests seen in the current slice of `lifetime`
        long long last_demand = 0;  // and in the slice before it
        Clock::time_point slice_start{};
    };

    void count_demand(Bucket& b, Clock::time_point now) const;
    // The bucket named `name`, made when missing; room is made first when the map is full.
    Bucket& entry(const std::string& name, Clock::time_point now);

    std::chrono::milliseconds lifetime_;
    std::mutex mutex_;
    std::unordered_map<std::string, Bucket> buckets_;
};

}  // namespace squawk::rate_limit
