// The API's JSON for webhooks (spec 4.2): endpoints (never their stored secret), the one-time
// secret answers, the test delivery, replays and the delivery log.
#pragma once

#include "common/domain/webhooks/webhook_service.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace squawk::api::render {

// id, url, events, status, consecutive_failures, timestamps.
nlohmann::json endpoint_json(const webhooks::Endpoint& e);
// The endpoint with its new `secret` (and, after a rotation, when the previous one expires).
nlohmann::json endpoint_with_secret_json(const webhooks::EndpointWithSecret& e);
nlohmann::json test_delivery_json(const webhooks::TestDelivery& t);
nlohmann::json replayed_delivery_json(const webhooks::ReplayedDelivery& r);
nlohmann::json replayed_dead_letters_json(const std::string& webhook_id, time::TimePoint since,
                                          const std::vector<long long>& delivery_ids);
// A delivery with its attempts, as the log lists it.
nlohmann::json delivery_log_json(const webhooks::DeliveryLog& d);

}  // namespace squawk::api::render
