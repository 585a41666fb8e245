// The revocation epoch: a counter in Redis that every key revocation increments, so API processes
// that cache authenticated keys drop their cache the moment any key is revoked.
#pragma once

#include "common/redis/redis_client.hpp"

namespace squawk::auth {

class KeyRevocations {
  public:
    // 0 while no revocation was announced (or Redis lost it, which also empties every cache).
    static long long epoch(redis::RedisClient& redis);
    // Call after the revocation is committed in MySQL.
    static void announce(redis::RedisClient& redis);
};

}  // namespace squawk::auth
