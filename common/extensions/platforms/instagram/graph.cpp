#include "common/extensions/platforms/instagram/graph.hpp"

#include <algorithm>

namespace squawk::social::instagram {
namespace {

using nlohmann::json;

// Graph API codes that mean "slow down" rather than "no": the application's (4), the user's (17),
// the per-call (32, 613) and Instagram's business use case (80002) rate limits.
constexpr long long kThrottleCodes[] = {4, 17, 32, 613, 80002};
constexpr long long kInvalidToken = 190;
// (#10) "Application does not have permission for this action" and the (#200)-(#299) family
// ("Requires ... permission").
constexpr long long kNoPermission = 10;
constexpr long long kPermissionsFirst = 200;
constexpr long long kPermissionsLast = 299;

json graph_error(const json& body) {
    return body.is_object() && body.contains("error") && body["error"].is_object() ? body["error"]
                                                                                   : json::object();
}

long long error_code(const json& body) {
    const json error = graph_error(body);
    return error.contains("code") && error["code"].is_number_integer()
               ? error["code"].get<long long>()
               : 0;
}

std::string graph_reason(const json& body) {
    return json_text(graph_error(body), "message");
}

bool throttled(const json& body) {
    return std::find(std::begin(kThrottleCodes), std::end(kThrottleCodes), error_code(body)) !=
           std::end(kThrottleCodes);
}

bool is_object_answer(long status, const json& body) {
    return status == 200 && body.is_object() && !body.contains("error");
}

constexpr AnswerShape kObjects{
    .speaker = "Instagram",
    .accepted = is_object_answer,
    .reason = graph_reason,
    .throttled = throttled,
};

constexpr AnswerShape kLists{
    .speaker = "Instagram",
    .accepted =
        [](long status, const json& body) {
            return is_object_answer(status, body) && body.contains("data") &&
                   body["data"].is_array();
        },
    .reason = graph_reason,
    .throttled = throttled,
};

// Meta tells a throttled application when it may call again in X-Business-Use-Case-Usage:
// {"<business id>": [{"type": "instagram", "estimated_time_to_regain_access": minutes, ...}]}.
std::optional<std::chrono::seconds> regain_access_after(const http::Response& response) {
    const auto header = response.header("x-business-use-case-usage");
    if (!header) return std::nullopt;
    const json usage = json::parse(*header, nullptr, false);
    if (!usage.is_object()) return std::nullopt;
    long long minutes = 0;
    for (const auto& [business, entries] : usage.items()) {
        if (!entries.is_array()) continue;
        for (const auto& entry : entries)
            if (entry.is_object() && entry.contains("estimated_time_to_regain_access") &&
                entry["estimated_time_to_regain_access"].is_number_integer())
                minutes =
                    std::max(minutes, entry["estimated_time_to_regain_access"].get<long long>());
    }
    if (minutes <= 0) return std::nullopt;
    return std::chrono::minutes(minutes);
}

Answer read(const http::Response& response, const AnswerShape& shape, std::string_view permission) {
    auto answer = read_answer(response, shape);
    if (!answer.failure) return answer;
    const long long code = error_code(answer.body);
    if (code == kInvalidToken) answer.failure->field = "access_token";
    if (code == kNoPermission || (code >= kPermissionsFirst && code <= kPermissionsLast))
        answer.failure->reason += " (this needs the " + std::string(permission) +
                                  " permission: reconnect the account and grant it)";
    // A 503 may say when to come back too, which read_answer reads for throttling only.
    if (answer.failure->kind == FailureKind::not_accepted && !answer.failure->retry_after)
        answer.failure->retry_after = retry_after_header(response);
    if (answer.failure->kind == FailureKind::not_accepted && !answer.failure->retry_after)
        answer.failure->retry_after = regain_access_after(response);
    return answer;
}

}  // namespace

std::string graph_path(std::string_view rest) {
    return std::string(kGraphRoot) + std::string(rest);
}

http::HeaderList bearer(const std::string& token) {
    return {{"Authorization", "Bearer " + token}};
}

Answer read_object(const http::Response& response, std::string_view permission) {
    return read(response, kObjects, permission);
}

Answer read_list(const http::Response& response, std::string_view permission) {
    return read(response, kLists, permission);
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

std::optional<long long> count_of(const json& object, const char* name) {
    if (!object.is_object() || !object.contains(name) || !object[name].is_number_integer())
        return std::nullopt;
    const long long value = object[name].get<long long>();
    if (value < 0) return std::nullopt;
    return value;
}

}  // namespace squawk::social::instagram
