#include "common/extensions/platforms/pinterest/answers.hpp"

#include <charconv>

namespace squawk::social::pinterest {
namespace {

using nlohmann::json;

// {code, message}; the token endpoint may also answer RFC 6749's {error, error_description}.
std::string reason_of(const json& body) {
    if (auto message = json_text(body, "message"); !message.empty()) return message;
    if (auto description = json_text(body, "error_description"); !description.empty())
        return description;
    return json_text(body, "error");
}

constexpr AnswerShape kObject{
    .speaker = "Pinterest",
    .accepted = [](long status, const json& body) { return status / 100 == 2 && body.is_object(); },
    .reason = reason_of,
};

constexpr AnswerShape kToken{
    .speaker = "Pinterest's token endpoint",
    .accepted =
        [](long status, const json& body) {
            return status == 200 && body.is_object() && body.contains("access_token") &&
                   body["access_token"].is_string();
        },
    .reason = reason_of,
};

// Pinterest's x-ratelimit-reset counts the seconds left in the window, not a time of day.
std::optional<std::chrono::seconds> window_reset(const http::Response& response) {
    const auto value = response.header("x-ratelimit-reset");
    if (!value) return std::nullopt;
    long long seconds = 0;
    const char* end = value->data() + value->size();
    if (std::from_chars(value->data(), end, seconds).ptr != end || seconds < 0) return std::nullopt;
    return std::chrono::seconds(seconds);
}

}  // namespace

const TokenEndpoint kTokenEndpoint{"/v5/oauth/token", ClientAuthentication::basic, &kToken};

Answer read_object(const http::Response& response) {
    auto answer = read_answer(response, kObject);
    if (!answer.failure) return answer;
    if (response.status == 401) answer.failure->field = "access_token";
    if (response.status == 429 && !answer.failure->retry_after)
        answer.failure->retry_after = window_reset(response);
    return answer;
}

}  // namespace squawk::social::pinterest
