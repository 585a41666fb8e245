// SQL for webhook endpoints: tenant-scoped reads and changes, the active-endpoint limit, secret
// rotation and the failing/held bookkeeping. Secrets are stored sealed (crypto::seal).
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/webhooks/statuses.hpp"

#include <optional>
#include <string>
#include <vector>

namespace squawk::webhooks {

struct Endpoint {
    long long id = 0;
    std::string public_id;
    long long workspace_id = 0;
    std::string url;
    std::vector<std::string> events;
    std::string secret_sealed;
    std::optional<std::string> previous_secret_sealed;
    std::optional<time::TimePoint> previous_secret_expires_at;
    EndpointStatus status = EndpointStatus::active;
    int consecutive_failures = 0;
    time::TimePoint created_at;
    time::TimePoint updated_at;
};

class EndpointRepository {
  public:
    static Endpoint insert(db::Session& s, long long workspace_id, const std::string& url,
                           const std::vector<std::string>& events,
                           const std::string& secret_sealed);
    static std::optional<Endpoint> find(db::Session& s, long long workspace_id,
                                        const std::string& public_id, bool for_update = false);
    static std::vector<Endpoint> list(db::Session& s, long long workspace_id);
    // Active endpoints of the workspace, rows locked so two creates cannot both pass the limit.
    static long long count_active_locked(db::Session& s, long long workspace_id);
    static void update(db::Session& s, const Endpoint& e);
    // Soft delete: the delivery log keeps naming the endpoint; open deliveries are dropped as
    // failed with the reason.
    static void remove(db::Session& s, const Endpoint& e);
    static void rotate_secret(db::Session& s, const Endpoint& e, const std::string& new_sealed,
                              time::TimePoint previous_expires_at);
};

}  // namespace squawk::webhooks
