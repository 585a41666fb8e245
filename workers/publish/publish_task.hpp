// `social.publish`: publishes one post target - checks, posting caps under the account's lock,
// the send mark, the platform call and the outcome that settles the post (and recycles it).
#pragma once

#include "common/core/redis/redis_pool.hpp"
#include "workers/publish/media_cache.hpp"
#include "workers/publish/outcome_writer.hpp"
#include "workers/publish/send_gate.hpp"
#include "workers/tasks/task_handler.hpp"

#include <chrono>
#include <memory>
#include <mutex>

namespace squawk::workers::publish {

// The steps every publishing fiber of a process shares, each written in batches: taking targets
// up, the caps check with the send mark, and the outcomes.
struct PublishBatchers {
    // Bounds one transaction; the rest waits for the next round.
    static constexpr size_t kMaxBatch = 1000;
    // Take-up and media happen within the lead, before the post's time, and the outcome after
    // its send: their batches may wait to fill. The gate stands between the time and the send,
    // so it writes at once.
    static constexpr std::chrono::milliseconds kLinger{10};

    explicit PublishBatchers(db::MysqlPool& mysql);
    TransactionBatcher<long long, std::optional<social::PublishWork>> take_up;
    // Targets whose media are prepared before their send (processing_media).
    TransactionBatcher<social::StagedTarget, bool> media_stage;
    SendGate gate;
    OutcomeWriter outcomes;
};

class PublishTask final : public TaskHandler {
  public:
    nlohmann::json run(const jobs::ClaimedJob& job, TaskContext& context) override;
    // Loads and checks the target within the pool's lead; the send waits for its time.
    bool prepares_ahead() const override { return true; }

  private:
    // For enqueueing recycled occurrences; opened on first use, shared by every fiber.
    redis::RedisPool& redis(const config::Config& config);
    // Started on first use with the worker's MySQL pool, shared by every fiber.
    PublishBatchers& batchers(db::MysqlPool& mysql);
    // The process's media cache (the prefetcher's too), taken on first use.
    MediaCache& media_cache(const config::Config& config);

    std::mutex mutex_;
    std::unique_ptr<redis::RedisPool> redis_;
    std::unique_ptr<PublishBatchers> batchers_;
    std::shared_ptr<MediaCache> media_cache_;
};

}  // namespace squawk::workers::publish
