// The counts Pinterest gives: an account's followers (GET /v5/user_account) and a pin's
// impressions and saves over the last 90 days (GET /v5/pins/{id}/analytics), the longest span
// its analytics cover.
#pragma once

#include "common/domain/social/connector.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace squawk::social::pinterest {

Metrics account_counts(const nlohmann::json& account);

// The analytics request for pin `id` covering the 90 days up to `today`.
std::string pin_analytics_path(const std::string& id, time::TimePoint today);
// The summary of an analytics answer ({"<app type>": {summary_metrics: {...}}}).
Metrics pin_counts(const nlohmann::json& analytics);

}  // namespace squawk::social::pinterest
