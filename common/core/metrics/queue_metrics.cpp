#include "common/core/metrics/queue_metrics.hpp"

#include "common/core/daemon/worker_settings.hpp"
#include "common/core/metrics/registry.hpp"
#include "common/core/queue/job_queue.hpp"
#include "common/core/redis/redis_client.hpp"

namespace squawk::metrics {

CollectorHandle export_queue_depths(const config::RedisSettings& redis,
                                    std::vector<std::string> pools) {
    return Registry::global().add_collector([redis, pools = std::move(pools)](SampleWriter& w) {
        redis::RedisClient client(redis);
        queue::JobQueue queue(client);
        for (const auto& pool : pools) {
            // Its backlog is in MySQL: webhooks::export_delivery_backlog reports it.
            if (!config::queued_in_redis(pool)) continue;
            const auto depth = queue.depth(pool);
            const Labels labels{{"pool", pool}};
            w.gauge("squawk_queue_ready", "Entries waiting for a worker.", labels,
                    static_cast<double>(depth.ready));
            w.gauge("squawk_queue_pending",
                    "Entries delivered to a worker and not yet acknowledged.", labels,
                    static_cast<double>(depth.pending));
            w.gauge("squawk_queue_delayed", "Entries waiting for their backoff or scheduled time.",
                    labels, static_cast<double>(depth.delayed));
            w.gauge("squawk_queue_oldest_ready_age_seconds", "Age of the oldest waiting entry.",
                    labels, static_cast<double>(depth.oldest_ready_age_ms) / 1000.0);
            w.counter("squawk_queue_added_total",
                      "Entries ever added to the pool's stream (reset by a Redis data loss).",
                      labels, static_cast<double>(depth.added));
            w.counter("squawk_queue_finished_total",
                      "Entries ever acknowledged by a worker (reset by a Redis data loss).", labels,
                      static_cast<double>(depth.finished));
        }
    });
}

}  // namespace squawk::metrics
