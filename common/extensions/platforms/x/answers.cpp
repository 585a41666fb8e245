#include "common/extensions/platforms/x/answers.hpp"

namespace squawk::social::x {
namespace {

using nlohmann::json;

// X answers a call its token has no scope for (tweet.write, media.write) with a bare problem whose
// title and detail are both "Forbidden"; its other 403s say what they refuse (duplicate content,
// a reply the conversation does not allow).
bool scope_refusal(const http::Response& response) {
    if (response.status != 403) return false;
    const auto body = json::parse(response.body, nullptr, false);
    return json_text(body, "type") == "about:blank" && json_text(body, "title") == "Forbidden" &&
           json_text(body, "detail") == "Forbidden";
}

}  // namespace

std::string reason_of(const json& body) {
    std::string messages;
    if (body.is_object() && body.contains("errors") && body["errors"].is_array())
        for (const auto& error : body["errors"]) {
            auto message = json_text(error, "message");
            if (message.empty()) message = json_text(error, "detail");
            if (!message.empty()) messages += (messages.empty() ? "" : "; ") + message;
        }
    if (!messages.empty()) return messages;
    const auto detail = json_text(body, "detail");
    return detail.empty() ? json_text(body, "title") : detail;
}

const AnswerShape kTimeline{
    .speaker = "X",
    .accepted =
        [](long status, const json& body) {
            return status == 200 && body.is_object() &&
                   (!body.contains("data") || body["data"].is_array());
        },
    .reason = reason_of,
};

Answer read(const http::Response& response, const AnswerShape& shape) {
    auto answer = read_answer(response, shape);
    if (!answer.failure) return answer;
    if (response.status == 401) answer.failure->field = "access_token";
    if (scope_refusal(response)) answer.failure->access = AccessLoss::permission_missing;
    if (response.status == 429 && !answer.failure->retry_after)
        answer.failure->retry_after = until_reset_header(response, "x-rate-limit-reset");
    return answer;
}

}  // namespace squawk::social::x
