#include "api/server/key_cache.hpp"

#include "common/auth/key_revocations.hpp"
#include "common/crypto/crypto.hpp"

namespace squawk::api {
namespace {
// Far above the keys one deployment uses at once; past it the cache starts over.
constexpr size_t kMaxEntries = 100000;
}  // namespace

std::optional<auth::ApiKey> KeyCache::find(db::MysqlPool& mysql, redis::RedisPool& redis,
                                           std::string_view secret) {
    const auto lookup = [&] {
        return mysql.run(
            [&](db::Session& s) { return auth::ApiKeyRepository::find_by_secret(s, secret); });
    };
    if (lifetime_.count() == 0) return lookup();
    long long epoch = 0;
    try {
        epoch = redis.run([](redis::RedisClient& r) { return auth::KeyRevocations::epoch(r); });
    } catch (const redis::RedisUnavailable&) {
        return lookup();  // without the epoch a cached entry cannot be trusted
    }
    const std::string hash = crypto::sha256_hex(secret);
    const auto now = std::chrono::steady_clock::now();
    {
        std::lock_guard lock(mutex_);
        const auto it = entries_.find(hash);
        if (it != entries_.end() && it->second.epoch == epoch && it->second.expires > now)
            return it->second.key;
    }
    // The epoch was read before this lookup, so a revocation committed after it changes the
    // epoch and invalidates what is stored here.
    auto found = lookup();
    if (found && !found->revoked) {
        std::lock_guard lock(mutex_);
        if (entries_.size() >= kMaxEntries) entries_.clear();
        entries_[hash] = Entry{*found, epoch, now + lifetime_};
    }
    return found;
}

}  // namespace squawk::api
