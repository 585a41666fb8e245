#include "api/render/social_account_json.hpp"

#include "api/render/optional_json.hpp"

namespace squawk::api::render {

nlohmann::json account_json(const social::Account& a) {
    return {{"id", a.public_id},
            {"platform", a.platform},
            {"display_name", a.identity.display_name},
            {"external_id", a.identity.external_id},
            {"status", a.status},
            {"token_valid", a.token_valid},
            {"reconnect_required", !a.token_valid},
            {"last_error", or_null(a.last_error)},
            {"last_checked_at", optional_time(a.last_checked_at)},
            {"created_at", time::format_iso8601(a.created_at)},
            {"updated_at", time::format_iso8601(a.updated_at)},
            {"sandbox", a.sandbox}};
}

nlohmann::json account_health_json(const social::Account& a) {
    return {{"id", a.public_id},
            {"platform", a.platform},
            {"display_name", a.identity.display_name},
            {"token_valid", a.token_valid},
            {"reconnect_required", !a.token_valid},
            {"last_error", or_null(a.last_error)},
            {"last_checked_at", optional_time(a.last_checked_at)},
            {"sandbox", a.sandbox}};
}

nlohmann::json moved_account_json(const social::Account& a, long long profile_id) {
    auto json = account_json(a);
    json["profile_id"] = profile_id;
    return json;
}

nlohmann::json follower_series_json(const social::FollowerSeries& series) {
    auto days = nlohmann::json::array();
    for (const auto& day : series.days)
        days.push_back({{"date", day.date}, {"followers", day.followers}});
    return {{"account_id", series.account_id},
            {"platform", series.platform},
            {"display_name", series.display_name},
            {"days", std::move(days)}};
}

}  // namespace squawk::api::render
