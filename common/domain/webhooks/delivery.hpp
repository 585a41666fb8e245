// Webhook deliveries as the worker and the API handle them: one row per event and endpoint, the
// attempts made for it, and the outcome of one attempt as it is written back in batches.
#pragma once

#include "common/core/time/clock.hpp"
#include "common/domain/webhooks/statuses.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace squawk::webhooks {

// A claimed delivery with what sending it needs (the endpoint as it is now).
struct ClaimedDelivery {
    long long id = 0;
    long long workspace_id = 0;
    long long endpoint_id = 0;
    std::string event_public_id;
    std::string event_name;
    std::string body;
    int attempts = 0;  // including this one
    int max_attempts = 0;
    std::string claim_token;
    std::string url;
    EndpointStatus endpoint_status = EndpointStatus::active;
    std::string secret_sealed;
    std::optional<std::string> previous_secret_sealed;
    std::optional<time::TimePoint> previous_secret_expires_at;
};

struct AttemptRecord {
    long long delivery_id = 0;
    int attempt = 0;
    time::TimePoint started_at;
    std::optional<long> status_code;
    int duration_ms = 0;
    std::string error;
    std::string response_excerpt;
};

// How one claimed delivery ended this time.
struct DeliveryResult {
    enum class EndpointEffect { none, success, failure };
    long long delivery_id = 0;
    std::string claim_token;
    long long endpoint_id = 0;
    std::optional<AttemptRecord> attempt;  // absent when nothing was sent (endpoint not active)
    DeliveryStatus status = DeliveryStatus::pending;  // the delivery's next status
    time::TimePoint next_attempt_at;
    EndpointEffect effect = EndpointEffect::none;
};

}  // namespace squawk::webhooks
