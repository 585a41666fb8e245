// A whole worker process minus its command line: the pools it runs, the blocking executor, the
// lease heartbeat, its entry in the worker registry and the graceful stop. The binary and the
// integration tests both run this.
#pragma once

#include "common/core/config/config.hpp"
#include "common/core/daemon/service.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/core/http/http_client.hpp"
#include "common/core/metrics/registry.hpp"
#include "common/core/redis/redis_client.hpp"
#include "common/core/runtime/periodic_task.hpp"
#include "common/core/storage/object_store.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/social/metrics_reader.hpp"
#include "common/domain/social/token_refresher.hpp"
#include "workers/publish/media_prefetcher.hpp"
#include "workers/runtime/blocking_executor.hpp"
#include "workers/runtime/pool_runner.hpp"
#include "workers/tasks/task_registry.hpp"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace squawk::workers {

class WorkerRuntime : public daemon::Service {
  public:
    // `config.workers.pools` already holds the per-pool sizes to use (command line applied).
    WorkerRuntime(config::Config config, std::vector<std::string> pools, std::string worker_id,
                  TaskRegistry registry);
    ~WorkerRuntime() override;
    WorkerRuntime(const WorkerRuntime&) = delete;
    WorkerRuntime& operator=(const WorkerRuntime&) = delete;

    void start() override;
    // Every pool has its consumer group and is reading.
    bool ready() const override;
    // Every pool's fetch loop went round since `since`.
    bool alive_since(std::chrono::steady_clock::time_point since) const override;
    // Stops taking work, lets running tasks finish within workers.shutdown_grace_seconds, gives
    // back what still runs, writes the remaining outcomes. Idempotent.
    void stop() override;

    const std::string& worker_id() const { return worker_id_; }

  private:
    // The heartbeat's body: moves the lease deadline of every job this worker runs.
    void extend_leases();
    // The registry refresh's body: this process, its pools and the tasks they run now.
    void announce();

    config::Config config_;
    std::vector<std::string> pool_names_;
    std::string worker_id_;
    TaskRegistry registry_;
    std::atomic<bool> stop_requested_{false};
    std::unique_ptr<db::MysqlPool> mysql_;
    std::unique_ptr<BlockingExecutor> executor_;
    std::unique_ptr<storage::ObjectStore> storage_;
    std::unique_ptr<WorkerServices> services_;
    std::vector<std::unique_ptr<http::Client>> http_loops_;
    std::vector<std::unique_ptr<WorkerPool>> pools_;
    metrics::CollectorHandle queue_gauges_;

    runtime::PeriodicTask heartbeat_;
    time::TimePoint started_at_{};
    // Used by the announcement's thread, and by stop() once that thread has ended.
    redis::RedisClient registry_redis_;
    runtime::PeriodicTask announcement_;
    // With the sync pool: OAuth tokens refreshed before they expire, on a client of their own
    // (the pools' client answers fibers only).
    std::unique_ptr<http::Client> refresh_http_;
    std::unique_ptr<social::TokenRefresher> token_refresher_;
    std::unique_ptr<runtime::PeriodicTask> token_refresh_;
    // Account metrics (followers) on the same HTTP client, due every few hours per account.
    std::unique_ptr<social::MetricsReader> metrics_reader_;
    std::unique_ptr<runtime::PeriodicTask> metrics_reading_;
    // With the publish pool: scheduled posts' media fetched before their time.
    std::unique_ptr<publish::MediaPrefetcher> media_prefetcher_;
    bool started_ = false;
    bool stopped_ = false;
};

// hostname-pid-random: unique per process so leases and stream consumers never collide.
std::string default_worker_id();

}  // namespace squawk::workers
