// What the webhook routes do (spec 4.2): endpoint changes with the target and limit checks, the
// synchronous test delivery, secret rotation, replays and the delivery log. Raises ApiError;
// returns domain types that api/render turns into JSON.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/core/http/http_client.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/webhooks/delivery_log_repository.hpp"
#include "common/domain/webhooks/endpoint_repository.hpp"
#include "common/domain/webhooks/statuses.hpp"

#include <optional>
#include <string>
#include <vector>

namespace squawk::webhooks {

struct EndpointChange {
    std::optional<std::string> url;
    std::optional<std::vector<std::string>> events;
    std::optional<EndpointStatus> status;  // active or paused
};

// An endpoint with its new secret in clear, shown once (create, rotate_secret).
struct EndpointWithSecret {
    Endpoint endpoint;
    std::string secret;
    std::optional<time::TimePoint> previous_secret_expires_at;  // rotation only
};

// What the synchronous test delivery did.
struct TestDelivery {
    long long delivery_id = 0;
    std::string event_id;
    bool success = false;
    std::optional<long> status_code;
    int duration_ms = 0;
    std::string error;  // empty when it succeeded
    std::string response_excerpt;
};

// A replayed delivery and the status it waits in.
struct ReplayedDelivery {
    long long delivery_id = 0;
    DeliveryStatus status = DeliveryStatus::pending;
};

class WebhookService {
  public:
    WebhookService(db::MysqlPool& mysql, const config::Config& config, http::Client& http)
        : mysql_(mysql), config_(config), http_(http) {}

    // The endpoint with its secret, shown only here and by rotate_secret.
    EndpointWithSecret create(long long workspace_id, const std::string& url,
                              const std::vector<std::string>& events);
    std::vector<Endpoint> list(long long workspace_id);
    Endpoint update(long long workspace_id, const std::string& id, const EndpointChange& change);
    void remove(long long workspace_id, const std::string& id);
    EndpointWithSecret rotate_secret(long long workspace_id, const std::string& id);
    // Sends webhook.test now and reports the outcome; never retried.
    TestDelivery test(long long workspace_id, const std::string& id);
    ReplayedDelivery replay(long long workspace_id, long long delivery_id);
    // The ids of the dead-lettered deliveries since `since` that go out again.
    std::vector<long long> replay_dead_letters(long long workspace_id, const std::string& id,
                                               time::TimePoint since);
    LogPage logs(long long workspace_id, const LogFilter& filter, long long offset, int limit);
    // The log older than the delivery `before`, uncounted (the dashboard's pages of a large log).
    std::vector<DeliveryLog> logs_before(long long workspace_id, const LogFilter& filter,
                                         std::optional<long long> before, int limit);
    DeliveryLog delivery(long long workspace_id, long long delivery_id);

  private:
    void check_url(const std::string& url) const;
    std::string seal(const std::string& secret) const;

    db::MysqlPool& mysql_;
    const config::Config& config_;
    http::Client& http_;
};

}  // namespace squawk::webhooks
