// Queue gauges every daemon can export: per pool, entries ready, delivered but unacknowledged,
// delayed, and the age of the oldest ready entry, read from Redis at scrape time.
#pragma once

#include "common/core/metrics/registry.hpp"
#include "common/core/redis/redis_settings.hpp"

#include <memory>
#include <string>
#include <vector>

namespace squawk::metrics {

[[nodiscard]] CollectorHandle export_queue_depths(const config::RedisSettings& redis,
                                                  std::vector<std::string> pools);

}  // namespace squawk::metrics
