#include "common/extensions/platforms/pinterest/metrics.hpp"

#include <chrono>

namespace squawk::social::pinterest {
namespace {

using nlohmann::json;

// start_date may be at most 90 days before today, both days included.
constexpr std::chrono::days kAnalyticsSpan{89};

std::optional<long long> count(const json& object, const char* name) {
    if (!object.is_object() || !object.contains(name) || !object[name].is_number())
        return std::nullopt;
    return static_cast<long long>(object[name].get<double>());
}

std::string day_of(time::TimePoint t) {
    return time::format_iso8601(t).substr(0, 10);
}

}  // namespace

Metrics account_counts(const json& account) {
    Metrics m;
    m.followers = count(account, "follower_count");
    m.following = count(account, "following_count");
    return m;
}

std::string pin_analytics_path(const std::string& id, time::TimePoint today) {
    return "/v5/pins/" + id + "/analytics?start_date=" + day_of(today - kAnalyticsSpan) +
           "&end_date=" + day_of(today) +
           "&metric_types=IMPRESSION,SAVE,PIN_CLICK,OUTBOUND_CLICK&app_types=ALL"
           "&split_field=NO_SPLIT";
}

// Unsplit, the answer has one member ("all"); its summary adds the days up.
Metrics pin_counts(const json& analytics) {
    Metrics m;
    for (const auto& [app_type, data] : analytics.items()) {
        if (!data.is_object() || !data.contains("summary_metrics")) continue;
        const json& summary = data["summary_metrics"];
        m.impressions = count(summary, "IMPRESSION");
        m.saves = count(summary, "SAVE");
        break;
    }
    return m;
}

}  // namespace squawk::social::pinterest
