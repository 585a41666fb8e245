// A bounded set of Redis connections for multi-threaded callers (the API's reactor threads).
#pragma once

#include "common/core/redis/redis_client.hpp"

#include <condition_variable>
#include <mutex>

namespace squawk::redis {

class RedisPool {
  public:
    RedisPool(config::RedisSettings settings, int size);

    template <class F>
    auto run(F&& f) {
        Lease lease(*this);
        return f(*lease.client);
    }

    const config::RedisSettings& settings() const { return settings_; }

  private:
    struct Lease {
        explicit Lease(RedisPool& pool);
        ~Lease();
        RedisPool& pool;
        std::unique_ptr<RedisClient> client;
    };

    config::RedisSettings settings_;
    int size_;
    int leased_ = 0;
    std::mutex mutex_;
    std::condition_variable available_;
    std::vector<std::unique_ptr<RedisClient>> idle_;
};

}  // namespace squawk::redis
