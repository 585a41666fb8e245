#include "api/render/webhook_json.hpp"

#include "api/render/optional_json.hpp"

namespace squawk::api::render {
namespace {

nlohmann::json attempt_json(const webhooks::AttemptLog& a) {
    return {{"attempt", a.attempt},
            {"started_at", time::format_iso8601(a.started_at)},
            {"status_code", or_null(a.status_code)},
            {"duration_ms", a.duration_ms},
            {"error", or_null(a.error)},
            {"response_excerpt", a.response_excerpt.value_or("")},
            {"success", a.status_code && *a.status_code >= 200 && *a.status_code < 300}};
}

}  // namespace

nlohmann::json endpoint_json(const webhooks::Endpoint& e) {
    return {{"id", e.public_id},
            {"url", e.url},
            {"events", e.events},
            {"status", e.status},
            {"consecutive_failures", e.consecutive_failures},
            {"created_at", time::format_iso8601(e.created_at)},
            {"updated_at", time::format_iso8601(e.updated_at)}};
}

nlohmann::json endpoint_with_secret_json(const webhooks::EndpointWithSecret& e) {
    auto json = endpoint_json(e.endpoint);
    json["secret"] = e.secret;
    if (e.previous_secret_expires_at)
        json["previous_secret_expires_at"] = time::format_iso8601(*e.previous_secret_expires_at);
    return json;
}

nlohmann::json test_delivery_json(const webhooks::TestDelivery& t) {
    return {{"delivery_id", t.delivery_id},
            {"event_id", t.event_id},
            {"success", t.success},
            {"status_code", or_null(t.status_code)},
            {"duration_ms", t.duration_ms},
            {"error", t.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(t.error)},
            {"response_excerpt", t.response_excerpt}};
}

nlohmann::json replayed_delivery_json(const webhooks::ReplayedDelivery& r) {
    return {{"delivery_id", r.delivery_id}, {"status", r.status}};
}

nlohmann::json replayed_dead_letters_json(const std::string& webhook_id, time::TimePoint since,
                                          const std::vector<long long>& delivery_ids) {
    return {{"webhook_id", webhook_id},
            {"since", time::format_iso8601(since)},
            {"replayed", delivery_ids.size()},
            {"delivery_ids", delivery_ids}};
}

nlohmann::json delivery_log_json(const webhooks::DeliveryLog& d) {
    nlohmann::json attempts = nlohmann::json::array();
    for (const auto& a : d.attempts) attempts.push_back(attempt_json(a));
    return {{"delivery_id", d.delivery_id},
            {"endpoint_id", d.endpoint_id},
            {"event_id", d.event_id},
            {"event", d.event},
            {"status", d.status},
            {"attempt_count", d.attempt_count},
            {"max_attempts", d.max_attempts},
            {"next_attempt_at", optional_time(d.next_attempt_at)},
            {"last_status_code", or_null(d.last_status_code)},
            {"last_error", or_null(d.last_error)},
            {"created_at", time::format_iso8601(d.created_at)},
            {"updated_at", time::format_iso8601(d.updated_at)},
            {"delivered_at", optional_time(d.delivered_at)},
            {"attempts", std::move(attempts)}};
}

}  // namespace squawk::api::render
