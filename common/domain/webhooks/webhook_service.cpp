#include "common/domain/webhooks/webhook_service.hpp"

#include "common/core/config/config.hpp"
#include "common/core/crypto/crypto.hpp"
#include "common/core/crypto/secret_key.hpp"
#include "common/core/error/api_error.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/net/target_url.hpp"
#include "common/domain/events/event_catalog.hpp"
#include "common/domain/events/event_outbox.hpp"
#include "common/domain/webhooks/delivery_attempt.hpp"
#include "common/domain/webhooks/delivery_repository.hpp"
#include "common/domain/webhooks/signature.hpp"

namespace squawk::webhooks {
namespace {

ApiError endpoint_not_found() {
    return ApiError(ErrorCode::NotFound, "No webhook with this id.");
}

ApiError delivery_not_found() {
    return ApiError(ErrorCode::NotFound, "No delivery with this id.");
}

ApiError too_many_active(int limit) {
    return ApiError(ErrorCode::Conflict,
                    "A workspace may have at most " + std::to_string(limit) + " active webhooks.",
                    {{"limit", limit}});
}

}  // namespace

void WebhookService::check_url(const std::string& url) const {
    try {
        net::check_target(url, config_.security.allow_private_targets);
    } catch (const net::TargetRefused& e) {
        throw validation_error({{"url", e.what()}}, "The webhook URL is not an allowed target.");
    }
}

std::string WebhookService::seal(const std::string& secret) const {
    try {
        return crypto::seal(crypto::secret_key_bytes(config_.security), secret);
    } catch (const std::exception& e) {
        log::error("cannot seal a webhook secret", {{"error", e.what()}});
        throw ApiError(ErrorCode::InternalError, "Webhook secrets cannot be stored right now.");
    }
}

EndpointWithSecret WebhookService::create(long long workspace_id, const std::string& url,
                                          const std::vector<std::string>& events) {
    check_url(url);
    const std::string secret = new_secret();
    const std::string sealed = seal(secret);
    const int limit = config_.webhooks.max_active_per_workspace;
    auto endpoint = mysql_.transaction([&](db::Session& s) {
        if (EndpointRepository::count_active_locked(s, workspace_id) >= limit)
            throw too_many_active(limit);
        return EndpointRepository::insert(s, workspace_id, url, events, sealed);
    });
    return {std::move(endpoint), secret, std::nullopt};
}

std::vector<Endpoint> WebhookService::list(long long workspace_id) {
    return mysql_.run([&](db::Session& s) { return EndpointRepository::list(s, workspace_id); });
}

Endpoint WebhookService::update(long long workspace_id, const std::string& id,
                                const EndpointChange& change) {
    if (change.url) check_url(*change.url);
    const int limit = config_.webhooks.max_active_per_workspace;
    return mysql_.transaction([&](db::Session& s) {
        const bool activating = change.status && *change.status == EndpointStatus::active;
        // Lock order as in create: the workspace, then the endpoint.
        const long long active =
            activating ? EndpointRepository::count_active_locked(s, workspace_id) : 0;
        auto e = EndpointRepository::find(s, workspace_id, id, true);
        if (!e) throw endpoint_not_found();
        if (change.url) e->url = *change.url;
        if (change.events) e->events = *change.events;
        if (change.status && *change.status != e->status) {
            if (activating && active >= limit) throw too_many_active(limit);
            // Re-enabling a failing endpoint starts its failure count afresh.
            if (activating) e->consecutive_failures = 0;
            e->status = *change.status;
        }
        EndpointRepository::update(s, *e);
        return *EndpointRepository::find(s, workspace_id, id);
    });
}

void WebhookService::remove(long long workspace_id, const std::string& id) {
    mysql_.transaction([&](db::Session& s) {
        auto e = EndpointRepository::find(s, workspace_id, id, true);
        if (!e) throw endpoint_not_found();
        EndpointRepository::remove(s, *e);
    });
}

EndpointWithSecret WebhookService::rotate_secret(long long workspace_id, const std::string& id) {
    const std::string secret = new_secret();
    const std::string sealed = seal(secret);
    const auto grace = std::chrono::seconds(config_.webhooks.rotation_grace_seconds);
    const auto expires = time::now() + grace;
    auto endpoint = mysql_.transaction([&](db::Session& s) {
        auto e = EndpointRepository::find(s, workspace_id, id, true);
        if (!e) throw endpoint_not_found();
        EndpointRepository::rotate_secret(s, *e, sealed, expires);
        return *e;
    });
    return {std::move(endpoint), secret, expires};
}

TestDelivery WebhookService::test(long long workspace_id, const std::string& id) {
    const std::string token = crypto::hex(crypto::random_bytes(16));
    const auto lease = time::now() + std::chrono::milliseconds(config_.webhooks.timeout_ms) +
                       std::chrono::seconds(config_.webhooks.lease_seconds);
    ClaimedDelivery d = mysql_.transaction([&](db::Session& s) {
        auto e = EndpointRepository::find(s, workspace_id, id);
        if (!e) throw endpoint_not_found();
        const nlohmann::json data = {{"webhook_id", e->public_id},
                                     {"message", "This is a test event sent on request."}};
        ClaimedDelivery c;
        // Only this endpoint receives it: the event never goes through fan-out.
        const auto event = events::record_dispatched(s, workspace_id, events::kWebhookTest, data);
        c.event_public_id = event.public_id;
        const nlohmann::json body = {{"id", c.event_public_id},
                                     {"event", events::kWebhookTest},
                                     {"created_at", time::format_iso8601(time::now())},
                                     {"data", data}};
        c.body = body.dump();
        c.id = DeliveryRepository::insert_test_delivery(s, workspace_id, e->id, event.id, c.body,
                                                        token, lease);
        c.workspace_id = workspace_id;
        c.endpoint_id = e->id;
        c.event_name = events::kWebhookTest;
        c.attempts = c.max_attempts = 1;
        c.claim_token = token;
        c.url = e->url;
        c.endpoint_status = e->status;
        c.secret_sealed = e->secret_sealed;
        c.previous_secret_sealed = e->previous_secret_sealed;
        c.previous_secret_expires_at = e->previous_secret_expires_at;
        return c;
    });

    const auto started = time::now();
    std::optional<http::Response> response;
    std::string refusal;
    try {
        const auto target = net::check_target(d.url, config_.security.allow_private_targets);
        SecretCache opened(crypto::secret_key_bytes(config_.security));
        const auto secrets = valid_secrets(d, opened, started);
        response = http_.send(build_request(d, target, secrets, config_.webhooks));
    } catch (const net::TargetRefused& e) {
        refusal = e.what();
    } catch (const std::exception& e) {
        // Recorded as a failed attempt so the test delivery never stays in flight.
        log::error("webhook test not sent", {{"webhook_id", id}, {"error", e.what()}});
        http::Response failed;
        failed.error = "not sent: the delivery could not be prepared";
        response = failed;
    }
    const DeliveryResult result = judge(d, started, response, refusal, config_.webhooks);
    mysql_.transaction([&](db::Session& s) {
        DeliveryRepository::record(s, {result}, config_.webhooks.failing_threshold);
    });
    const auto& a = *result.attempt;
    return {d.id,
            d.event_public_id,
            result.status == DeliveryStatus::delivered,
            a.status_code,
            a.duration_ms,
            a.error,
            a.response_excerpt};
}

ReplayedDelivery WebhookService::replay(long long workspace_id, long long delivery_id) {
    const auto result = mysql_.transaction(
        [&](db::Session& s) { return DeliveryRepository::replay(s, workspace_id, delivery_id); });
    switch (result) {
        case DeliveryRepository::ReplayResult::not_found:
            throw delivery_not_found();
        case DeliveryRepository::ReplayResult::in_flight:
            throw ApiError(ErrorCode::Conflict,
                           "The delivery is being sent right now; replay it once "
                           "this attempt has finished.");
        case DeliveryRepository::ReplayResult::endpoint_deleted:
            throw validation_error({{"delivery_id", "its webhook was deleted"}},
                                   "The delivery's webhook no longer exists.");
        case DeliveryRepository::ReplayResult::replayed_held:
            // Waits for its paused or failing endpoint to be re-enabled.
            return {delivery_id, DeliveryStatus::held};
        case DeliveryRepository::ReplayResult::replayed:
            break;
    }
    return {delivery_id, DeliveryStatus::pending};
}

std::vector<long long> WebhookService::replay_dead_letters(long long workspace_id,
                                                           const std::string& id,
                                                           time::TimePoint since) {
    return mysql_.transaction([&](db::Session& s) {
        auto e = EndpointRepository::find(s, workspace_id, id, true);
        if (!e) throw endpoint_not_found();
        return DeliveryRepository::replay_dead_letters(s, e->id, since);
    });
}

LogPage WebhookService::logs(long long workspace_id, const LogFilter& filter, long long offset,
                             int limit) {
    return mysql_.run([&](db::Session& s) {
        return DeliveryLogRepository::list(s, workspace_id, filter, offset, limit);
    });
}

std::vector<DeliveryLog> WebhookService::logs_before(long long workspace_id,
                                                     const LogFilter& filter,
                                                     std::optional<long long> before, int limit) {
    return mysql_.run([&](db::Session& s) {
        return DeliveryLogRepository::page_before(s, workspace_id, filter, before, limit);
    });
}

DeliveryLog WebhookService::delivery(long long workspace_id, long long delivery_id) {
    auto found = mysql_.run(
        [&](db::Session& s) { return DeliveryLogRepository::find(s, workspace_id, delivery_id); });
    if (!found) throw delivery_not_found();
    return std::move(*found);
}

}  // namespace squawk::webhooks
