// Settings of squawk-worker: its blocking threads, its grace on stop and, per pool, how many tasks
// run at once. Sections [workers] and [workers.<pool>]; the rows are in worker_settings.cpp.
#pragma once

#include "common/core/config/config_fwd.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <string_view>

namespace squawk::config {

struct PoolSettings {
    int threads = 1;
    int fibers = 16;
    int batch = 100;
    // How long before their run_after the scheduler hands the pool's jobs over, so that the work
    // that may come early (loading, checks) is done when the time comes. Tasks still act at
    // run_after.
    int lead_ms = 0;
    // The pool's share of its worker's HTTP requests in flight (the worker's HTTP client holds the
    // sum of its pools' shares; more wait their turn); 0: one per fiber.
    int http_connections = 0;
};

// The pool's share of its worker's HTTP connections.
inline int http_connections_of(const PoolSettings& p) {
    const int per_fiber = p.threads * p.fibers;
    return p.http_connections > 0 ? std::min(per_fiber, p.http_connections) : per_fiber;
}

// Workers claim a job at most this long before its run_after, whatever the scheduler's lead
// (so a scheduler configured with a longer lead than a worker never has its jobs refused).
inline constexpr int kMaxPoolLeadMs = 5000;

// Publishing prepares scheduled posts ahead: at their time only the send remains. Its fibers
// mostly wait for their posts' time, so it needs far fewer connections than fibers.
inline PoolSettings publish_pool_defaults() {
    PoolSettings p;
    p.lead_ms = 100;
    p.http_connections = 512;
    return p;
}

struct WorkerSettings {
    int blocking_threads = 4;
    int shutdown_grace_seconds = 20;
    int metrics_port = 0;
    // Keyed by pool name: publish, generate, webhooks, sync.
    std::map<std::string, PoolSettings> pools{{"publish", publish_pool_defaults()}};
};

// The worker pools a process may run.
inline constexpr const char* kPoolNames[] = {"publish", "generate", "webhooks", "sync"};
// The pool that publishes posts, whose tasks come in bursts at their posts' times.
inline constexpr std::string_view kPublishPool = "publish";
// The pool whose work waits in MySQL (webhook deliveries) instead of a Redis queue.
inline constexpr std::string_view kWebhookPool = "webhooks";
// Whether a pool's work passes through its Redis stream, so that the stream's depth and counts
// describe it.
inline constexpr bool queued_in_redis(std::string_view pool) {
    return pool != kWebhookPool;
}

SectionSchema<WorkerSettings> workers_schema();

}  // namespace squawk::config
