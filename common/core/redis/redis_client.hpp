// A synchronous Redis connection (hiredis) that reconnects after any I/O error, to the primary
// the Sentinels name when they are configured (and then also after a failover demoted it).
// Each thread or fiber-side executor owns its own client; a client is not shared concurrently.
#pragma once

#include "common/core/redis/redis_settings.hpp"

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct redisContext;

namespace squawk::redis {

class RedisUnavailable : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A reply copied out of hiredis so it can outlive the call.
struct Reply {
    enum class Type { nil, integer, string, status, error, array };
    Type type = Type::nil;
    long long integer = 0;
    std::string text;  // string, status or error text
    std::vector<Reply> elements;

    bool is_nil() const { return type == Type::nil; }
    bool is_error() const { return type == Type::error; }
};

using Command = std::vector<std::string>;

class RedisClient {
  public:
    explicit RedisClient(config::RedisSettings settings);
    ~RedisClient();
    RedisClient(const RedisClient&) = delete;
    RedisClient& operator=(const RedisClient&) = delete;

    // Sends one command; a Redis error reply is returned, not thrown. I/O failures throw.
    Reply command(const Command& args);
    // Sends all commands in one round trip and returns their replies in order.
    std::vector<Reply> pipeline(const std::vector<Command>& commands);

    // Keys of this deployment all start with the configured prefix.
    std::string key(std::string_view suffix) const;
    const config::RedisSettings& settings() const { return settings_; }

  private:
    void connect();
    void drop();

    config::RedisSettings settings_;
    redisContext* context_ = nullptr;
};

}  // namespace squawk::redis
