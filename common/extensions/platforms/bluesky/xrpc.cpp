#include "common/extensions/platforms/bluesky/xrpc.hpp"

#include <algorithm>
#include <charconv>

namespace squawk::social::bluesky {
namespace {

using nlohmann::json;

// XRPC answers its output object, or {error, message} (atproto.com/specs/xrpc).
constexpr AnswerShape kAnswers{
    .speaker = "Bluesky",
    .accepted = [](long status, const json& body) { return status == 200 && body.is_object(); },
    .reason =
        [](const json& body) {
            const auto error = json_text(body, "error");
            const auto message = json_text(body, "message");
            return error.empty() || message.empty() ? error + message : error + ": " + message;
        },
};

}  // namespace

Answer read(const http::Response& response) {
    auto answer = read_answer(response, kAnswers);
    if (answer.failure && response.status == 429 && !answer.failure->retry_after)
        answer.failure->retry_after = until_reset_header(response, "ratelimit-reset");
    return answer;
}

json object_at(const json& object, const char* name) {
    return object.is_object() && object.contains(name) && object[name].is_object() ? object[name]
                                                                                   : json::object();
}

PlatformFailure unreadable(std::string reason, FailureKind kind) {
    return PlatformFailure{kind, std::move(reason), std::nullopt, 200, ""};
}

}  // namespace squawk::social::bluesky
