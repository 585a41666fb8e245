// The Redis side of the job path: one ready stream per pool read through a consumer group, and one
// delayed sorted set per pool for backoffs. Redis only carries job ids; MySQL holds the truth, so
// every operation here may be lost and rebuilt (see the scheduler's reconciler).
#pragma once

#include "common/core/redis/redis_client.hpp"

#include <string>
#include <vector>

namespace squawk::queue {

struct Entry {
    std::string entry_id;  // stream entry id, needed to acknowledge
    long long job_id = 0;
};

// A job id due to move from the delayed set to the stream at `due_unix_ms`.
struct Delayed {
    long long job_id = 0;
    long long due_unix_ms = 0;
};

struct PoolDepth {
    long long ready = 0;    // entries not yet delivered to a consumer
    long long pending = 0;  // delivered, not yet acknowledged
    long long delayed = 0;  // waiting for their backoff
    long long oldest_ready_age_ms = 0;
    // Cumulative since the stream was created (reset by a Redis data loss); rates are the
    // differences between two readings.
    long long added = 0;     // entries ever added: enqueued, retried or moved from the delayed set
    long long finished = 0;  // entries ever acknowledged, abandoned ones dropped included
};

// A worker process reading a pool's stream, as the consumer group knows it.
inline constexpr const char* kGroup = "workers";

class JobQueue {
  public:
    explicit JobQueue(redis::RedisClient& client) : client_(client) {}

    std::string ready_key(const std::string& pool) const;
    std::string delayed_key(const std::string& pool) const;
    // Present while Redis still holds the queues this deployment wrote; gone after a data loss.
    std::string epoch_key() const;

    void ensure_group(const std::string& pool);
    // Adds the ids to the pool's stream in one round trip.
    void enqueue(const std::string& pool, const std::vector<long long>& job_ids);
    // Reads up to `count` new entries for `consumer`, waiting up to `block_ms`.
    std::vector<Entry> read(const std::string& pool, const std::string& consumer, int count,
                            int block_ms);
    // Acknowledges and deletes entries so the stream holds only unfinished work, and puts
    // `retries` into the delayed set, all in one round trip.
    void ack(const std::string& pool, const std::vector<std::string>& entry_ids,
             const std::vector<Delayed>& retries = {});
    void schedule(const std::string& pool, long long job_id, long long due_unix_ms);
    void schedule_many(const std::string& pool, const std::vector<Delayed>& jobs);
    // Moves due ids of the delayed set into the stream; returns how many moved.
    long long move_due(const std::string& pool, long long now_unix_ms, int limit);
    // Acknowledges entries delivered more than `min_idle_ms` ago to consumers that never
    // acknowledged them (dead workers). Their jobs are requeued from MySQL by the reclaimer.
    long long drop_abandoned(const std::string& pool, long long min_idle_ms, int limit);
    PoolDepth depth(const std::string& pool);
    // Forgets a consumer that stopped with nothing pending, so the group collects no dead names.
    void remove_consumer(const std::string& pool, const std::string& consumer);

    bool epoch_present();
    void mark_epoch();

  private:
    redis::RedisClient& client_;
};

}  // namespace squawk::queue
