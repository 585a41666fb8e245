#include "workers/runtime/worker_runtime.hpp"

#include "common/core/config/config.hpp"
#include "common/core/crypto/crypto.hpp"
#include "common/core/fs/work_files.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/metrics/queue_metrics.hpp"
#include "common/core/queue/worker_registry.hpp"
#include "common/core/storage/object_store_factory.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "common/domain/jobs/job_types.hpp"
#include "workers/runtime/fiber_http.hpp"
#include "workers/webhooks/delivery_pool.hpp"

#include <unistd.h>

#include <algorithm>
#include <thread>

namespace squawk::workers {

namespace {

constexpr int kRefreshConnections = 4;
// Well inside TokenRefresher::kAhead, so a token is refreshed several passes before it expires.
constexpr std::chrono::seconds kRefreshEvery{30};

// What a publish task touches of its fiber's stack: 12-16 KiB, read from /proc/<pid>/smaps after
// a 10,000-post burst. Left to page faults, 12-14 µs each on a virtual machine, a fresh worker
// took three per fiber in its first burst, thousands of fibers at once, while the posts waited.
// The other pools come in no such bursts and keep the memory.
constexpr size_t kPublishMappedStackBytes = 16 * 1024;

// Leases are real time: a worker that stops beating for a whole lease is presumed dead, so it
// beats three times a lease and retries a failed beat within a second.
runtime::PeriodicTask::Options heartbeat_options(const config::Config& config) {
    const auto lease = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::seconds(config.jobs.lease_seconds));
    const auto retry = std::min(lease / 3, std::chrono::milliseconds(1000));
    return {.name = "lease-heartbeat",
            .interval = lease / 3,
            .max_backoff = retry,
            .first_retry = retry};
}

// The registry entry is refreshed every few seconds (tests shrink it with time_scale, never
// below a second so a busy test machine does not drop a live worker) and lives three refreshes.
std::chrono::milliseconds announce_interval() {
    return std::max<std::chrono::milliseconds>(
        std::chrono::seconds(1), std::chrono::duration_cast<std::chrono::milliseconds>(
                                     time::scaled(std::chrono::seconds(5))));
}

std::string host_name() {
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0) return "worker";
    return host;
}

}  // namespace

std::string default_worker_id() {
    std::string name = host_name();
    if (name.size() > 60) name.resize(60);
    return name + "-" + std::to_string(::getpid()) + "-" + crypto::hex(crypto::random_bytes(3));
}

WorkerRuntime::WorkerRuntime(config::Config config, std::vector<std::string> pools,
                             std::string worker_id, TaskRegistry registry)
    : config_(std::move(config)),
      pool_names_(std::move(pools)),
      worker_id_(std::move(worker_id)),
      registry_(std::move(registry)),
      heartbeat_(heartbeat_options(config_), [this] { extend_leases(); }),
      registry_redis_(config_.redis),
      announcement_({.name = "worker-registry", .interval = announce_interval()},
                    [this] { announce(); }) {
    // Every thread that may hold a connection at once: executor, fetch and completion threads
    // of each pool, and the heartbeat.
    auto mysql = config_.mysql;
    mysql.pool_size =
        std::max<int>(mysql.pool_size, config_.workers.blocking_threads +
                                           3 * static_cast<int>(pool_names_.size()) + 1);
    mysql_ = std::make_unique<db::MysqlPool>(mysql);
    executor_ = std::make_unique<BlockingExecutor>(config_.workers.blocking_threads);
    storage_ = storage::make_object_store(config_.storage, config_.media.dir);
    // Copies of input media that jobs of a killed worker never removed (input_media.hpp); no
    // job reads one for a day.
    squawk::fs::remove_files_older_than(std::filesystem::path(config_.media.dir) / ".work",
                                        std::chrono::hours(24));
    // Multi loops for the fibers of the task pools that call out (publishes, syncs, generation
    // providers): connections to a host are reused, and send() parks only the calling fiber. One
    // loop per fiber thread of those pools, at most one per core: in a burst of publishes the
    // loop's thread, which also does the sockets' kernel work, is the busiest of the process.
    // The webhook pool's threads run loops of their own.
    int http_connections = 0;
    int calling_threads = 0;
    for (const auto& name : pool_names_) {
        if (name == webhooks::kDeliveryPool) continue;
        const auto& pool = config_.workers.pools.at(name);
        const int connections = config::http_connections_of(pool);
        http_connections += connections;
        if (connections > 0) calling_threads += pool.threads;
    }
    if (http_connections > 0) {
        const int loops = std::clamp(
            std::min(calling_threads, static_cast<int>(std::thread::hardware_concurrency())), 1,
            http_connections);
        for (int i = 0; i < loops; ++i) {
            http_loops_.push_back(std::make_unique<http::Client>(http_connections / loops));
            http_loops_.back()->set_waiter(fiber_send);
        }
        time::set_pause(fiber_pause);
    }
    std::vector<http::Client*> http_loops;
    for (const auto& loop : http_loops_) http_loops.push_back(loop.get());
    services_ = std::unique_ptr<WorkerServices>(
        new WorkerServices{config_, worker_id_, *mysql_, *executor_, registry_, stop_requested_,
                           *storage_, std::move(http_loops)});
    for (const auto& name : pool_names_) {
        const auto& settings = config_.workers.pools.at(name);
        const PoolSpec spec{name, settings.threads, settings.fibers, settings.batch,
                            name == config::kPublishPool ? kPublishMappedStackBytes : 0};
        if (name == webhooks::kDeliveryPool) {
            pools_.push_back(std::make_unique<webhooks::DeliveryPool>(spec, *services_));
        } else {
            pools_.push_back(std::make_unique<PoolRunner>(spec, *services_));
        }
    }
    queue_gauges_ = metrics::export_queue_depths(config_.redis, pool_names_);
    if (std::find(pool_names_.begin(), pool_names_.end(), "sync") != pool_names_.end()) {
        refresh_http_ = std::make_unique<http::Client>(kRefreshConnections);
        token_refresher_ =
            std::make_unique<social::TokenRefresher>(*mysql_, config_, *refresh_http_);
        token_refresh_ = std::make_unique<runtime::PeriodicTask>(
            runtime::PeriodicTask::Options{.name = "token-refresh", .interval = kRefreshEvery},
            [this] { token_refresher_->run_once(); });
        metrics_reader_ = std::make_unique<social::MetricsReader>(*mysql_, config_, *refresh_http_);
        metrics_reading_ = std::make_unique<runtime::PeriodicTask>(
            runtime::PeriodicTask::Options{.name = "metrics-reading", .interval = kRefreshEvery},
            [this] { metrics_reader_->run_once(); });
    }
    if (!http_loops_.empty() && std::find(pool_names_.begin(), pool_names_.end(),
                                          config::kPublishPool) != pool_names_.end())
        media_prefetcher_ = std::make_unique<publish::MediaPrefetcher>(config_, *mysql_, *executor_,
                                                                       *http_loops_.front());
}

WorkerRuntime::~WorkerRuntime() {
    stop();
}

void WorkerRuntime::start() {
    if (started_) return;
    started_ = true;
    started_at_ = time::now();
    for (auto& pool : pools_) pool->start();
    heartbeat_.start();
    announcement_.start();
    if (token_refresh_) token_refresh_->start();
    if (metrics_reading_) metrics_reading_->start();
    if (media_prefetcher_) media_prefetcher_->start();
    log::info("worker started", {{"worker_id", worker_id_}, {"pools", pool_names_}});
}

bool WorkerRuntime::ready() const {
    for (const auto& pool : pools_)
        if (!pool->reading()) return false;
    return started_;
}

bool WorkerRuntime::alive_since(std::chrono::steady_clock::time_point since) const {
    for (const auto& pool : pools_)
        if (pool->last_alive() < since) return false;
    return true;
}

// A lease with two thirds of its length still ahead is left alone: it outlasts the next beat
// (a third of a lease away) and the one after, as an extended lease would.
void WorkerRuntime::extend_leases() {
    const auto now = time::now();
    const auto lease = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::seconds(config_.jobs.lease_seconds));
    mysql_->run([&](db::Session& s) {
        jobs::JobRepository::extend_leases(s, worker_id_, now + lease, now + lease * 2 / 3);
    });
}

void WorkerRuntime::announce() {
    queue::WorkerInfo me{worker_id_, host_name(), ::getpid(), {}, started_at_};
    for (size_t i = 0; i < pools_.size(); ++i) {
        const auto& settings = config_.workers.pools.at(pool_names_[i]);
        me.pools.push_back(
            {pool_names_[i], settings.threads, settings.fibers, pools_[i]->in_flight()});
    }
    queue::WorkerRegistry(registry_redis_).announce(me, 3 * announce_interval());
}

void WorkerRuntime::stop() {
    if (!started_ || stopped_) return;
    stopped_ = true;
    log::info("worker stopping", {{"worker_id", worker_id_}});
    for (auto& pool : pools_) pool->stop_fetching();
    if (media_prefetcher_) media_prefetcher_->stop();

    const auto grace_end = std::chrono::steady_clock::now() +
                           std::chrono::seconds(config_.workers.shutdown_grace_seconds);
    const auto busy = [&] {
        for (const auto& pool : pools_)
            if (pool->in_flight() > 0) return true;
        return false;
    };
    while (busy() && std::chrono::steady_clock::now() < grace_end)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));

    // Give back first, then ask tasks to stop: an outcome of a stopped task must not be
    // recorded for a job that is still ours.
    for (auto& pool : pools_) pool->release_in_flight();
    stop_requested_ = true;
    for (auto& pool : pools_) pool->finish(std::chrono::seconds(5));

    heartbeat_.stop();
    announcement_.stop();
    // A Redis that is down now forgets the entry by itself when it expires.
    try {
        queue::WorkerRegistry(registry_redis_).withdraw(worker_id_);
    } catch (const redis::RedisUnavailable& e) {
        log::warn("worker not withdrawn from the registry; its entry expires by itself",
                  {{"worker_id", worker_id_}, {"error", e.what()}});
    }
    if (token_refresh_) token_refresh_->stop();
    if (metrics_reading_) metrics_reading_->stop();
    log::info("worker stopped", {{"worker_id", worker_id_}});
}

}  // namespace squawk::workers
