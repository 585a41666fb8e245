#include "common/extensions/platforms/youtube/google_api.hpp"

#include <algorithm>

namespace squawk::social::youtube {
namespace {

using nlohmann::json;

json google_error(const json& body) {
    return body.is_object() && body.contains("error") && body["error"].is_object() ? body["error"]
                                                                                   : json::object();
}

std::string google_reason(const json& body) {
    return json_text(google_error(body), "message");
}

// quotaExceeded is the project's daily quota; the others are per-second limits worth a retry
// within minutes (Retry-After when Google sends one).
bool throttled(const json& body) {
    const auto reason = error_reason(body);
    return reason == "quotaExceeded" || reason == "rateLimitExceeded" ||
           reason == "userRateLimitExceeded";
}

std::optional<std::chrono::seconds> quota_delay(const json& body) {
    if (error_reason(body) != "quotaExceeded") return std::nullopt;
    return until_quota_reset(time::now());
}

constexpr AnswerShape kResource{
    .speaker = "YouTube",
    .accepted =
        [](long status, const json& body) {
            return status / 100 == 2 && body.is_object() && !body.contains("error");
        },
    .reason = google_reason,
    .retry_after = quota_delay,
    .throttled = throttled,
};

}  // namespace

std::string error_reason(const json& body) {
    const auto error = google_error(body);
    if (!error.contains("errors") || !error["errors"].is_array() || error["errors"].empty())
        return {};
    return json_text(error["errors"][0], "reason");
}

Answer read_resource(const http::Response& response, std::string_view scope) {
    auto answer = read_answer(response, kResource);
    if (!answer.failure) return answer;
    if (response.status == 401) answer.failure->field = "access_token";
    if (error_reason(answer.body) == "insufficientPermissions") {
        answer.failure->field = "access_token";
        answer.failure->access = AccessLoss::permission_missing;
        answer.failure->reason += " (the account must grant " + std::string(scope) +
                                  "; reconnect it to grant every scope asked)";
    }
    return answer;
}

std::chrono::seconds until_quota_reset(time::TimePoint now) {
    // Midnight of Pacific standard time (UTC-8): in summer, an hour after the reset, never before.
    constexpr long long kDay = 24 * 3600;
    constexpr long long kPacificOffset = 8 * 3600;
    const long long seconds = time::to_unix_ms(now) / 1000 - kPacificOffset;
    const long long into_day = ((seconds % kDay) + kDay) % kDay;
    return std::chrono::seconds(std::max(1LL, kDay - into_day));
}

}  // namespace squawk::social::youtube
