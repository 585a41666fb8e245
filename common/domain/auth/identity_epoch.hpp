// The identity epoch: a counter in Redis that every key revocation and every workspace rename
// increments, so API processes that cache keys and workspace records drop them at once.
#pragma once

#include "common/core/redis/redis_client.hpp"

#include <string>

namespace squawk::auth {

class IdentityEpoch {
  public:
    // 0 while nothing was announced (or Redis lost it, which also empties every cache).
    static long long current(redis::RedisClient& redis);
    // The Redis key holding the counter, for scripts that check it in the same round trip.
    static std::string key(const redis::RedisClient& redis);
    // Call after the revocation or rename is committed in MySQL.
    static void announce(redis::RedisClient& redis);
};

}  // namespace squawk::auth
