#include "common/auth/key_revocations.hpp"

#include <charconv>

namespace squawk::auth {

long long KeyRevocations::epoch(redis::RedisClient& redis) {
    const auto reply = redis.command({"GET", redis.key("keys:revocation_epoch")});
    if (reply.is_error()) throw redis::RedisUnavailable("revocation epoch: " + reply.text);
    long long value = 0;
    if (reply.type == redis::Reply::Type::string)
        std::from_chars(reply.text.data(), reply.text.data() + reply.text.size(), value);
    return value;
}

void KeyRevocations::announce(redis::RedisClient& redis) {
    const auto reply = redis.command({"INCR", redis.key("keys:revocation_epoch")});
    if (reply.is_error()) throw redis::RedisUnavailable("revocation epoch: " + reply.text);
}

}  // namespace squawk::auth
