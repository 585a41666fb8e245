// Operator views and repairs of dead-lettered webhook deliveries across workspaces (the
// dashboard's operations pages): listed by event and workspace, counted, and discarded. Sending
// one again goes through WebhookService::replay, in the delivery's own workspace.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"

#include <optional>
#include <string>
#include <vector>

namespace squawk::webhooks {

struct DeadDeliveryFilter {
    std::optional<std::string> event_name;
    std::optional<long long> workspace_id;
    int limit = 50;
};

// One line of an operator listing.
struct DeadDelivery {
    long long id = 0;
    long long workspace_id = 0;
    std::string endpoint_id;  // the endpoint's public id
    std::string event_name;
    int attempts = 0;
    std::optional<long long> last_status_code;
    std::string last_error;
    time::TimePoint created_at;
    time::TimePoint updated_at;
};

class DeadDeliveryAdmin {
  public:
    // Newest first.
    static std::vector<DeadDelivery> list(db::Session& s, const DeadDeliveryFilter& filter);
    static long long count(db::Session& s);
    // The workspace of the dead-lettered delivery `id`, or nothing when there is none.
    static std::optional<long long> workspace_of(db::Session& s, long long id);
    // Gives a dead-lettered delivery up for good: it becomes failed, like a delivery whose
    // endpoint was deleted, and no replay of dead letters sends it again. False when `id` names
    // no dead-lettered delivery.
    static bool discard(db::Session& s, long long id);
};

}  // namespace squawk::webhooks
