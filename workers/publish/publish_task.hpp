// `social.publish`: publishes one post target - checks, posting caps under the account's lock,
// the send mark, the platform call and the outcome that settles the post (and recycles it).
#pragma once

#include "common/redis/redis_pool.hpp"
#include "workers/publish/send_gate.hpp"
#include "workers/tasks/task_handler.hpp"

#include <memory>
#include <mutex>

namespace squawk::workers::publish {

class PublishTask final : public TaskHandler {
  public:
    nlohmann::json run(const jobs::ClaimedJob& job, TaskContext& context) override;

  private:
    // For enqueueing recycled occurrences; opened on first use, shared by every fiber.
    redis::RedisPool& redis(const config::Config& config);
    // Started on first use with the worker's MySQL pool, shared by every fiber.
    SendGate& gate(db::MysqlPool& mysql);

    std::mutex mutex_;
    std::unique_ptr<redis::RedisPool> redis_;
    std::unique_ptr<SendGate> gate_;
};

}  // namespace squawk::workers::publish
