// SQL for deliveries and attempts: fan-out of outbox events, batched claims and outcome writes for
// the delivery workers, replay, lease recovery and the retention sweep.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/webhooks/delivery.hpp"
#include "common/domain/webhooks/webhook_settings.hpp"

#include <optional>
#include <string>
#include <vector>

namespace squawk::webhooks {

class DeliveryRepository {
  public:
    // Turns up to `limit` undispatched events into deliveries for every active subscribed
    // endpoint of the event's workspace and of its parent (profile fan-out). Returns events done.
    static int dispatch(db::Session& s, int limit, const config::WebhookSettings& settings);

    static std::vector<ClaimedDelivery> claim(db::Session& s, int limit, const std::string& token,
                                              time::TimePoint lease_until);
    // Moves the lease of every delivery still held under one of `tokens` to `lease_until`.
    static void extend_leases(db::Session& s, const std::vector<std::string>& tokens,
                              time::TimePoint lease_until);
    // Writes attempts and next states; endpoint failure counters and the `failing` switch.
    static void record(db::Session& s, const std::vector<DeliveryResult>& results,
                       int failing_threshold);
    // Claimed deliveries given back untouched at shutdown.
    static void release(db::Session& s,
                        const std::vector<std::pair<long long, std::string>>& claims);

    // Deliveries whose worker vanished: counted as a failed attempt and retried (or dead-lettered).
    static int reclaim_expired(db::Session& s, int limit);
    // Deletes deliveries (and their attempts) and dispatched events older than `before`.
    static int sweep(db::Session& s, time::TimePoint before, int limit);

    enum class ReplayResult { replayed, replayed_held, in_flight, not_found, endpoint_deleted };
    static ReplayResult replay(db::Session& s, long long workspace_id, long long delivery_id);
    // Every dead-lettered delivery of the endpoint created at or after `since`; returns their ids.
    static std::vector<long long> replay_dead_letters(db::Session& s, long long endpoint_id,
                                                      time::TimePoint since);

    // The synchronous test call: a delivery row in `delivering` for one endpoint.
    static long long insert_test_delivery(db::Session& s, long long workspace_id,
                                          long long endpoint_id, long long event_id,
                                          const std::string& body, const std::string& claim_token,
                                          time::TimePoint lease_until);
};

}  // namespace squawk::webhooks
