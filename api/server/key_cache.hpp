// Authenticated keys cached in the API process so the request path skips the MySQL lookup. An
// entry is trusted only while the identity epoch it was read under is still current, so a revoked
// key is refused at once by every process; entries also expire after api.key_cache_seconds.
// Unknown and revoked keys are never cached.
#pragma once

#include "api/server/epoch_cache.hpp"
#include "api/server/recent_epoch.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/core/redis/redis_pool.hpp"
#include "common/domain/auth/api_key.hpp"

#include <chrono>
#include <optional>
#include <string_view>

namespace squawk::api {

class KeyCache {
  public:
    struct Found {
        std::optional<auth::ApiKey> key;  // revoked keys come back with revoked = true
        // The identity epoch the answer is valid under; nothing when the cache is off or Redis
        // could not be asked (the key then came from MySQL).
        std::optional<long long> epoch;
    };

    // How find() learns the identity epoch.
    enum class EpochRead {
        fresh,   // from Redis now
        recent,  // as read by this process within `epoch_freshness` (RecentEpoch), else from Redis
    };

    KeyCache(std::chrono::seconds lifetime, std::chrono::milliseconds epoch_freshness)
        : entries_(lifetime), recent_epoch_(epoch_freshness) {}

    // Learns the current epoch, then answers from the cache or from MySQL.
    Found find(db::MysqlPool& mysql, redis::RedisPool& redis, std::string_view secret,
               EpochRead read);

    // The key cached for `secret` under whatever epoch it was read; the caller must confirm that
    // epoch in Redis before trusting it (the rate limiter does so in the same round trip).
    std::optional<EpochCache<auth::ApiKey>::Hit> peek(std::string_view secret);

  private:
    std::optional<long long> current_epoch(redis::RedisPool& redis, EpochRead read);

    EpochCache<auth::ApiKey> entries_;  // by SHA-256 of the key
    RecentEpoch recent_epoch_;
};

}  // namespace squawk::api
