#include "common/domain/users/sign_in_throttle.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/domain/users/user_service.hpp"

namespace squawk::users {

std::optional<rate_limit::Decision> count_attempt(redis::RedisPool& redis,
                                                  rate_limit::RateLimiter& limiter,
                                                  std::string_view kind, std::string_view email,
                                                  std::string_view address) {
    const std::string prefix(kind);
    // The email is hashed: Redis keys are no place for addresses of people.
    const rate_limit::Subject subjects[] = {
        {prefix + ":account:" + crypto::sha256_hex(normalized_email(email)), 0, kAttemptsPerAccount,
         false},
        {prefix + ":address:" + std::string(address), 0, kAttemptsPerAddress, false},
    };
    return redis.run([&](redis::RedisClient& r) -> std::optional<rate_limit::Decision> {
        std::optional<rate_limit::Decision> refused;
        for (const auto& subject : subjects) {
            // A fixed limit never needs the workspace's account count.
            const auto d = limiter.check(r, subject, [] { return 0LL; });
            if (!d.allowed && !refused) refused = d;
        }
        return refused;
    });
}

}  // namespace squawk::users
