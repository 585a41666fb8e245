// Authenticated keys cached in the API process so the request path skips the MySQL lookup. An
// entry is trusted only while the Redis revocation epoch it was read under is still current, so a
// revoked key is refused at once by every process; entries also expire after api.key_cache_seconds
// (which bounds the damage if Redis loses a fresh epoch). Unknown keys are never cached.
#pragma once

#include "common/auth/api_key.hpp"
#include "common/db/mysql_pool.hpp"
#include "common/redis/redis_pool.hpp"

#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

namespace squawk::api {

class KeyCache {
  public:
    explicit KeyCache(std::chrono::seconds lifetime) : lifetime_(lifetime) {}

    // The stored key for `secret` (revoked keys come back with revoked = true), or nothing.
    std::optional<auth::ApiKey> find(db::MysqlPool& mysql, redis::RedisPool& redis,
                                     std::string_view secret);

  private:
    struct Entry {
        auth::ApiKey key;
        long long epoch = 0;
        std::chrono::steady_clock::time_point expires;
    };

    std::chrono::seconds lifetime_;
    std::mutex mutex_;
    std::unordered_map<std::string, Entry> entries_;  // by SHA-256 of the key
};

}  // namespace squawk::api
