// How many social accounts a workspace has connected on their platforms (sandbox accounts do not
// count): the rate-limit tier (spec 8.1) follows it.
// The count lives in MySQL and is cached in Redis; connecting or disconnecting an account must
// call invalidate() after its commit so every API process sees the new tier at once.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/redis/redis_client.hpp"

#include <string>

namespace squawk::accounts {

class ConnectedAccounts {
  public:
    static long long count(db::Session& s, long long workspace_id);
    // The Redis key holding the cached count (the rate limiter reads it inside its script).
    static std::string cache_key(const redis::RedisClient& r, long long workspace_id);
    static void cache(redis::RedisClient& r, long long workspace_id, long long count,
                      int ttl_seconds);
    static void invalidate(redis::RedisClient& r, long long workspace_id);
};

}  // namespace squawk::accounts
