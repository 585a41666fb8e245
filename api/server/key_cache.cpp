#include "api/server/key_cache.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/domain/auth/identity_epoch.hpp"

namespace squawk::api {

std::optional<long long> KeyCache::current_epoch(redis::RedisPool& redis, EpochRead read) {
    const auto now = RecentEpoch::Clock::now();
    if (read == EpochRead::recent) {
        if (auto recent = recent_epoch_.get(now)) return recent;
    }
    try {
        const long long epoch =
            redis.run([](redis::RedisClient& r) { return auth::IdentityEpoch::current(r); });
        recent_epoch_.saw(epoch, now);
        return epoch;
    } catch (const redis::RedisUnavailable&) {
        return std::nullopt;
    }
}

KeyCache::Found KeyCache::find(db::MysqlPool& mysql, redis::RedisPool& redis,
                               std::string_view secret, EpochRead read) {
    const auto lookup = [&] {
        return mysql.run(
            [&](db::Session& s) { return auth::ApiKeyRepository::find_by_secret(s, secret); });
    };
    if (!entries_.enabled()) return {lookup(), std::nullopt};
    const auto current = current_epoch(redis, read);
    // Without the epoch a cached entry cannot be trusted.
    if (!current) return {lookup(), std::nullopt};
    const long long epoch = *current;
    const std::string hash = crypto::sha256_hex(secret);
    if (auto cached = entries_.get(hash, epoch)) return {std::move(*cached), epoch};
    auto found = lookup();
    if (found && !found->revoked) entries_.put(hash, *found, epoch);
    return {std::move(found), epoch};
}

std::optional<EpochCache<auth::ApiKey>::Hit> KeyCache::peek(std::string_view secret) {
    if (!entries_.enabled()) return std::nullopt;
    return entries_.peek(crypto::sha256_hex(secret));
}

}  // namespace squawk::api
