// SQL for the delivery log a workspace reads (spec 4.2): deliveries with their endpoint, event
// and every attempt made, filtered and paged, or one delivery by id.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/webhooks/statuses.hpp"

#include <optional>
#include <string>
#include <vector>

namespace squawk::webhooks {

struct AttemptLog {
    long long delivery_id = 0;
    int attempt = 0;
    time::TimePoint started_at;
    std::optional<long long> status_code;  // absent when no answer came
    long long duration_ms = 0;
    std::optional<std::string> error;
    std::optional<std::string> response_excerpt;
};

struct DeliveryLog {
    long long delivery_id = 0;
    std::string endpoint_id;  // public ids
    std::string event_id;
    std::string event;
    DeliveryStatus status = DeliveryStatus::pending;
    long long attempt_count = 0;
    long long max_attempts = 0;
    std::optional<time::TimePoint> next_attempt_at;  // only while pending or retrying
    std::optional<long long> last_status_code;
    std::optional<std::string> last_error;
    time::TimePoint created_at;
    time::TimePoint updated_at;
    std::optional<time::TimePoint> delivered_at;
    std::vector<AttemptLog> attempts;  // oldest first
};

struct LogFilter {
    std::string endpoint_public_id;  // empty: every endpoint
    std::string event_name;
    std::optional<DeliveryStatus> status;  // none: every status
};

struct LogPage {
    std::vector<DeliveryLog> items;
    long long total = 0;
};

class DeliveryLogRepository {
  public:
    // Newest first.
    static LogPage list(db::Session& s, long long workspace_id, const LogFilter& filter,
                        long long offset, int limit);
    static std::optional<DeliveryLog> find(db::Session& s, long long workspace_id,
                                           long long delivery_id);
    // At most `limit` deliveries older than the delivery `before` (none: the newest), newest
    // first and never counted, so a page costs the same however long the log: read backwards
    // through the workspace's index by id, or through the endpoint's by creation time when the
    // filter names one.
    static std::vector<DeliveryLog> page_before(db::Session& s, long long workspace_id,
                                                const LogFilter& filter,
                                                std::optional<long long> before, int limit);
};

}  // namespace squawk::webhooks
