// Request limits of spec 8.1, exact across every API process sharing one Redis: one Lua script
// per check reads the tier, counts the request in a fixed one-minute window (aligned to the
// Redis server's clock) and, for analytics routes, in a one-second window first.
#pragma once

#include "common/core/rate_limit/rate_limit_settings.hpp"
#include "common/core/redis/lua_script.hpp"

#include <functional>
#include <optional>
#include <string>

namespace squawk::rate_limit {

struct Subject {
    // Who shares the allowance within the workspace: "live", "test" or "key:<id>" (a key with
    // a custom limit).
    std::string bucket;
    long long workspace_id = 0;      // the caller's: its connected accounts pick the tier
    std::optional<int> fixed_limit;  // a key's custom per-minute limit replaces the tier
    bool per_second_ceiling = false;
};

struct Decision {
    bool allowed = true;
    long long limit = 0;                // per minute
    long long remaining = 0;            // in this minute
    long long retry_after_seconds = 0;  // when refused
    bool refused_by_second_ceiling = false;
    long long reset_ms = 0;  // the minute window's end on the Redis clock
    long long granted = 1;   // tokens counted for this check: one, or a lease's (TokenLeases)

    // When the minute window ends, in whole seconds (X-RateLimit-Reset).
    long long reset_unix() const { return (reset_ms + 999) / 1000; }
};

// What a check counts: `take` tokens when that many remain (fewer when not), after handing back
// `refund` unspent tokens granted in the window ending at `refund_reset_ms`.
struct Ask {
    long long take = 1;
    long long refund = 0;
    long long refund_reset_ms = 0;
};

// A Redis counter that must still hold `expected` for a check to count: the identity epoch that
// vouches for a cached key, confirmed in the same round trip as the check.
struct Precondition {
    std::string key;
    long long expected = 0;
};

// The tier of a workspace with `connected` social accounts.
long long tier_limit(const config::RateLimitSettings& settings, long long connected);
// The per-second ceiling of analytics routes: a sixtieth of the minute allowance, at least 6.
long long per_second_ceiling(long long per_minute);

class RateLimiter {
  public:
    explicit RateLimiter(config::RateLimitSettings settings);

    // `count_connected` is called when the cached account count is missing (then cached).
    Decision check(redis::RedisClient& redis, const Subject& subject,
                   const std::function<long long()>& count_connected) const;
    // The same check, made only while `precondition` holds; nothing (and nothing counted) when
    // the counter moved.
    std::optional<Decision> check_if(redis::RedisClient& redis, const Subject& subject,
                                     const Precondition& precondition,
                                     const std::function<long long()>& count_connected,
                                     const Ask& ask = {}) const;

  private:
    std::optional<Decision> run(redis::RedisClient& redis, const Subject& subject,
                                const Precondition* precondition,
                                const std::function<long long()>& count_connected,
                                const Ask& ask) const;

    config::RateLimitSettings settings_;
    redis::LuaScript script_;
};

}  // namespace squawk::rate_limit
