// Prometheus series of webhook delivery: outcomes and attempt durations recorded by the delivery
// pool, and the backlog, which lives in MySQL rather than in a Redis queue, read at scrape time.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/metrics/registry.hpp"
#include "common/domain/webhooks/delivery.hpp"

namespace squawk::webhooks {

// Counts one finished attempt by the delivery's next status and observes its duration.
void record_delivery_metrics(const DeliveryResult& result);

// The `webhooks` pool's queue gauges (the same series names as the Redis-backed pools): due
// deliveries, deliveries waiting for their retry time, the age of the oldest due one, and
// deliveries held for failing endpoints.
[[nodiscard]] metrics::CollectorHandle export_delivery_backlog(db::MysqlPool& mysql);

}  // namespace squawk::webhooks
