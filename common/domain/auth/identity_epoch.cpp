#include "common/domain/auth/identity_epoch.hpp"

#include <charconv>

namespace squawk::auth {

long long IdentityEpoch::current(redis::RedisClient& redis) {
    const auto reply = redis.command({"GET", key(redis)});
    if (reply.is_error()) throw redis::RedisUnavailable("identity epoch: " + reply.text);
    long long value = 0;
    if (reply.type == redis::Reply::Type::string)
        std::from_chars(reply.text.data(), reply.text.data() + reply.text.size(), value);
    return value;
}

std::string IdentityEpoch::key(const redis::RedisClient& redis) {
    return redis.key("identity_epoch");
}

void IdentityEpoch::announce(redis::RedisClient& redis) {
    const auto reply = redis.command({"INCR", key(redis)});
    if (reply.is_error()) throw redis::RedisUnavailable("identity epoch: " + reply.text);
}

}  // namespace squawk::auth
