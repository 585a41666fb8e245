#include "common/extensions/platforms/threads/graph.hpp"

#include <algorithm>

namespace squawk::social::threads {
namespace {

using nlohmann::json;

// Graph API error codes that mean "slow down" rather than "no": the application's (4), the
// user's (17) and the per-call (32, 613) rate limits.
constexpr long long kThrottleCodes[] = {4, 17, 32, 613};
constexpr long long kInvalidToken = 190;
// "Unsupported get/delete request. Object with ID '...' does not exist, ..." (subcode 33).
constexpr long long kInvalidParameter = 100;
constexpr long long kObjectMissing = 33;

json graph_error(const json& body) {
    return body.is_object() && body.contains("error") && body["error"].is_object() ? body["error"]
                                                                                   : json::object();
}

long long error_number(const json& body, const char* name) {
    const json error = graph_error(body);
    return error.contains(name) && error[name].is_number_integer() ? error[name].get<long long>()
                                                                   : 0;
}

std::string graph_reason(const json& body) {
    return json_text(graph_error(body), "message");
}

bool throttled(const json& body) {
    return std::find(std::begin(kThrottleCodes), std::end(kThrottleCodes),
                     error_number(body, "code")) != std::end(kThrottleCodes);
}

constexpr AnswerShape kObjects{
    .speaker = "Threads",
    .accepted =
        [](long status, const json& body) {
            return status == 200 && body.is_object() && !body.contains("error");
        },
    .reason = graph_reason,
    .throttled = throttled,
};

constexpr AnswerShape kTokens{
    .speaker = "Threads' token endpoint",
    .accepted =
        [](long status, const json& body) {
            return status == 200 && body.is_object() && body.contains("access_token") &&
                   body["access_token"].is_string();
        },
    .reason = graph_reason,
    .throttled = throttled,
};

Answer read(const http::Response& response, const AnswerShape& shape) {
    auto answer = read_answer(response, shape);
    if (answer.failure && error_number(answer.body, "code") == kInvalidToken)
        answer.failure->field = "access_token";
    return answer;
}

}  // namespace

Answer read_object(const http::Response& response) {
    return read(response, kObjects);
}

Answer read_token(const http::Response& response) {
    return read(response, kTokens);
}

bool names_missing_object(const json& body) {
    return error_number(body, "code") == kInvalidParameter &&
           (error_number(body, "error_subcode") == kObjectMissing ||
            graph_reason(body).find("does not exist") != std::string::npos);
}

bool is_graph_id(std::string_view text) {
    return !text.empty() && text.size() <= 30 &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string graph_id(const json& object, const char* name) {
    if (!object.is_object() || !object.contains(name)) return {};
    const json& value = object[name];
    if (value.is_number_unsigned()) return std::to_string(value.get<unsigned long long>());
    if (value.is_number_integer() && value.get<long long>() >= 0)
        return std::to_string(value.get<long long>());
    if (value.is_string() && is_graph_id(value.get<std::string>())) return value.get<std::string>();
    return {};
}

std::optional<time::TimePoint> parse_graph_time(std::string_view text) {
    // The Graph API writes its offset as +0000; ISO 8601's extended form, which the clock reads,
    // has +00:00.
    const size_t sign = text.size() >= 5 ? text.size() - 5 : std::string_view::npos;
    if (sign == std::string_view::npos || (text[sign] != '+' && text[sign] != '-'))
        return time::parse_iso8601(text);
    std::string extended(text);
    extended.insert(extended.size() - 2, ":");
    return time::parse_iso8601(extended);
}

}  // namespace squawk::social::threads
