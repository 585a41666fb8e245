#include "api/server/key_cache.hpp"

#include "common/auth/identity_epoch.hpp"
#include "common/crypto/crypto.hpp"

namespace squawk::api {

KeyCache::Found KeyCache::find(db::MysqlPool& mysql, redis::RedisPool& redis,
                               std::string_view secret) {
    const auto lookup = [&] {
        return mysql.run(
            [&](db::Session& s) { return auth::ApiKeyRepository::find_by_secret(s, secret); });
    };
    if (!entries_.enabled()) return {lookup(), std::nullopt};
    long long epoch = 0;
    try {
        epoch = redis.run([](redis::RedisClient& r) { return auth::IdentityEpoch::current(r); });
    } catch (const redis::RedisUnavailable&) {
        return {lookup(), std::nullopt};  // without the epoch a cached entry cannot be trusted
    }
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
