#include "common/domain/webhooks/secret_cache.hpp"

#include "common/core/crypto/crypto.hpp"

namespace squawk::webhooks {

SecretCache::SecretCache(std::string key_bytes, size_t capacity)
    : key_bytes_(std::move(key_bytes)), capacity_(capacity) {}

const std::string& SecretCache::open(const std::string& sealed) {
    if (const auto it = opened_.find(sealed); it != opened_.end()) return it->second;
    std::string secret = crypto::open(key_bytes_, sealed);
    // A rotated secret is never looked up again; starting over bounds what old ones hold.
    if (opened_.size() >= capacity_) opened_.clear();
    return opened_.emplace(sealed, std::move(secret)).first->second;
}

}  // namespace squawk::webhooks
