#include "common/extensions/platforms/facebook/graph.hpp"

#include <algorithm>
#include <cctype>

namespace squawk::social::facebook {
namespace {

using nlohmann::json;

// The application's (4), the user's (17), the Page's (32) and a call's own (613) rate limits:
// "slow down" rather than "no".
constexpr long long kThrottleCodes[] = {4, 17, 32, 613};
constexpr long long kInvalidToken = 190;
// "Unsupported get/delete request. Object with ID '...' does not exist" is 100 with subcode 33.
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
    .speaker = "Facebook",
    .accepted =
        [](long status, const json& body) {
            return status == 200 && body.is_object() && !body.contains("error");
        },
    .reason = graph_reason,
    .throttled = throttled,
};

constexpr AnswerShape kTokens{
    .speaker = "Facebook's token endpoint",
    .accepted =
        [](long status, const json& body) {
            return status == 200 && body.is_object() && body.contains("access_token") &&
                   body["access_token"].is_string();
        },
    .reason = graph_reason,
    .throttled = throttled,
};

// Facebook says how long a throttled caller waits not in Retry-After but in its usage headers:
// {"<id>": [{"type": "pages", "call_count": 100, ..., "estimated_time_to_regain_access": 12}]}
// in minutes (X-Business-Use-Case-Usage), the longest of them counting.
std::optional<std::chrono::seconds> usage_wait(const http::Response& response) {
    const auto header = response.header("x-business-use-case-usage");
    if (!header) return std::nullopt;
    const json usage = json::parse(*header, nullptr, false);
    if (!usage.is_object()) return std::nullopt;
    long long minutes = -1;
    for (const auto& [id, entries] : usage.items()) {
        if (!entries.is_array()) continue;
        for (const auto& entry : entries)
            if (entry.is_object() && entry.contains("estimated_time_to_regain_access") &&
                entry["estimated_time_to_regain_access"].is_number_integer())
                minutes =
                    std::max(minutes, entry["estimated_time_to_regain_access"].get<long long>());
    }
    if (minutes < 0) return std::nullopt;
    return std::chrono::minutes(minutes);
}

Answer read(const http::Response& response, const AnswerShape& shape) {
    auto answer = read_answer(response, shape);
    if (!answer.failure) return answer;
    if (error_number(answer.body, "code") == kInvalidToken) answer.failure->field = "access_token";
    if (answer.failure->kind == FailureKind::not_accepted && !answer.failure->retry_after)
        answer.failure->retry_after = usage_wait(response);
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
    if (text.empty() || text.size() > 64) return false;
    const auto underscore = text.find('_');
    const auto digits = [](std::string_view part) {
        return !part.empty() && std::all_of(part.begin(), part.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c));
        });
    };
    if (underscore == std::string_view::npos) return digits(text);
    return digits(text.substr(0, underscore)) && digits(text.substr(underscore + 1));
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

PlatformFailure refusal(std::string reason, long http_status) {
    return PlatformFailure{FailureKind::refused, std::move(reason), std::nullopt, http_status, ""};
}

PlatformFailure nothing_published(PlatformFailure failure) {
    if (failure.kind == FailureKind::unknown_outcome) failure.kind = FailureKind::not_accepted;
    return failure;
}

}  // namespace squawk::social::facebook
