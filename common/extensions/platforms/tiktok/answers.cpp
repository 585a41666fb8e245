#include "common/extensions/platforms/tiktok/answers.hpp"

namespace squawk::social::tiktok {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

// TikTok's rate limits count requests per minute; its post cap counts a day's posts, so an hour
// later is the earliest a capped post stands a chance.
constexpr std::chrono::seconds kRateWindow = 60s;
constexpr std::chrono::seconds kPostCapRetry = 1h;

json error_of(const json& body) {
    return body.is_object() && body.contains("error") && body["error"].is_object() ? body["error"]
                                                                                   : json::object();
}

std::string code_of(const json& body) {
    return json_text(error_of(body), "code");
}

std::string reason_of(const json& body) {
    const auto message = json_text(error_of(body), "message");
    return message.empty() ? code_of(body) : message;
}

bool throttled(const json& body) {
    const auto code = code_of(body);
    return code == "rate_limit_exceeded" || code == "spam_risk_too_many_posts";
}

std::optional<std::chrono::seconds> post_cap_delay(const json& body) {
    if (code_of(body) == "spam_risk_too_many_posts") return kPostCapRetry;
    return std::nullopt;
}

constexpr AnswerShape kApi{
    .speaker = "TikTok",
    .accepted =
        [](long status, const json& body) {
            return status == 200 && code_of(body) == "ok" && body.contains("data") &&
                   body["data"].is_object();
        },
    .payload = "data",
    .reason = reason_of,
    .retry_after = post_cap_delay,
    .throttled = throttled,
};

}  // namespace

Answer read(const http::Response& response, std::string_view scope) {
    auto answer = read_answer(response, kApi);
    if (!answer.failure) return answer;
    auto& failure = *answer.failure;
    const auto code = code_of(answer.body);
    if (code == "access_token_invalid") {
        failure.field = "access_token";
        failure.access = AccessLoss::token_refused;
    }
    if (code == "scope_not_authorized") {
        failure.access = AccessLoss::permission_missing;
        failure.reason = "the account did not grant TikTok's " + std::string(scope) +
                         " scope; reconnect it granting every permission (" + failure.reason + ")";
    }
    if ((failure.http_status == 429 || code == "rate_limit_exceeded") && !failure.retry_after)
        failure.retry_after = kRateWindow;
    return answer;
}

}  // namespace squawk::social::tiktok
