#include "common/core/redis/redis_pool.hpp"

namespace squawk::redis {

RedisPool::RedisPool(config::RedisSettings settings, int size)
    : settings_(std::move(settings)), size_(size) {}

RedisPool::Lease::Lease(RedisPool& p) : pool(p) {
    std::unique_lock lock(pool.mutex_);
    pool.available_.wait(lock, [&] { return !pool.idle_.empty() || pool.leased_ < pool.size_; });
    ++pool.leased_;
    if (!pool.idle_.empty()) {
        client = std::move(pool.idle_.back());
        pool.idle_.pop_back();
    } else {
        client = std::make_unique<RedisClient>(pool.settings_);
    }
}

RedisPool::Lease::~Lease() {
    {
        std::lock_guard lock(pool.mutex_);
        --pool.leased_;
        pool.idle_.push_back(std::move(client));
    }
    pool.available_.notify_one();
}

}  // namespace squawk::redis
