// The worker processes alive, as each announces itself in Redis: an entry per worker that it
// refreshes every few seconds and that expires on its own when the worker dies, so an idle worker
// is listed (the consumer groups know only those handed an entry) and a killed one drops out.
#pragma once

#include "common/core/redis/redis_client.hpp"
#include "common/core/time/clock.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>
#include <vector>

namespace squawk::queue {

struct WorkerPoolInfo {
    std::string name;
    int threads = 0;
    int fibers = 0;  // per thread
    long long in_flight = 0;
};

struct WorkerInfo {
    std::string id;  // the name it reads the pools' streams under
    std::string host;
    long long pid = 0;
    std::vector<WorkerPoolInfo> pools;
    time::TimePoint started_at{};

    long long in_flight() const;
};

class WorkerRegistry {
  public:
    explicit WorkerRegistry(redis::RedisClient& client) : client_(client) {}

    std::string index_key() const;
    std::string entry_key(const std::string& worker_id) const;

    // Writes the worker's entry to live `ttl` and lists it in the index, in one round trip.
    void announce(const WorkerInfo& worker, std::chrono::milliseconds ttl);
    void withdraw(const std::string& worker_id);
    // The workers whose entry has not expired, by id. Ids whose entry expired leave the index.
    std::vector<WorkerInfo> alive();

  private:
    redis::RedisClient& client_;
};

// The form stats.json and `squawkctl stats --json` show, and the registry stores.
nlohmann::json to_json(const WorkerInfo& worker);
nlohmann::json to_json(const std::vector<WorkerInfo>& workers);

}  // namespace squawk::queue
