// The API's JSON for connected social accounts: the account (never its credentials), its health
// as the health check lists it, and the account after a move with the profile it went to.
#pragma once

#include "common/domain/social/account_metrics_repository.hpp"
#include "common/domain/social/account_repository.hpp"

#include <nlohmann/json.hpp>

namespace squawk::api::render {

nlohmann::json account_json(const social::Account& a);
// id, platform, display_name, token_valid, last_error, last_checked_at, sandbox.
nlohmann::json account_health_json(const social::Account& a);
nlohmann::json moved_account_json(const social::Account& a, long long profile_id);
// account_id, platform, display_name and days [{date, followers}], oldest first.
nlohmann::json follower_series_json(const social::FollowerSeries& series);

}  // namespace squawk::api::render
