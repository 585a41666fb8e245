#include "common/domain/social/meta_graph.hpp"

#include <algorithm>

namespace squawk::social::meta_graph {
namespace {

using nlohmann::json;

// The application's (4), the user's (17), the Page's or per-call (32) and a call's own (613)
// rate limits: "slow down" rather than "no".
constexpr long long kThrottleCodes[] = {4, 17, 32, 613};
constexpr long long kInvalidToken = 190;
// "Application does not have permission for this action" (10) and the permission family 200-299.
constexpr long long kPermissionDenied = 10;
constexpr long long kPermissionCodesFirst = 200;
constexpr long long kPermissionCodesLast = 299;
// "Unsupported get/delete request. Object with ID '...' does not exist" is 100 with subcode 33.
constexpr long long kInvalidParameter = 100;
constexpr long long kObjectMissing = 33;

json graph_error(const json& body) {
    return body.is_object() && body.contains("error") && body["error"].is_object() ? body["error"]
                                                                                   : json::object();
}

}  // namespace

long long error_number(const json& body, const char* name) {
    const json error = graph_error(body);
    return error.contains(name) && error[name].is_number_integer() ? error[name].get<long long>()
                                                                   : 0;
}

std::string reason(const json& body) {
    return json_text(graph_error(body), "message");
}

bool throttled(const json& body) {
    return std::find(std::begin(kThrottleCodes), std::end(kThrottleCodes),
                     error_number(body, "code")) != std::end(kThrottleCodes);
}

bool is_object(long http_status, const json& body) {
    return http_status == 200 && body.is_object() && !body.contains("error");
}

bool is_token(long http_status, const json& body) {
    return http_status == 200 && body.is_object() && body.contains("access_token") &&
           body["access_token"].is_string();
}

Answer read(const http::Response& response, const AnswerShape& shape) {
    auto answer = read_answer(response, shape);
    if (!answer.failure) return answer;
    const auto code = error_number(answer.body, "code");
    if (code == kInvalidToken) {
        answer.failure->field = "access_token";
        answer.failure->access = AccessLoss::token_refused;
    }
    if (code == kPermissionDenied ||
        (code >= kPermissionCodesFirst && code <= kPermissionCodesLast))
        answer.failure->access = AccessLoss::permission_missing;
    return answer;
}

std::optional<std::chrono::minutes> business_use_case_wait(const http::Response& response) {
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

bool names_missing_object(const json& body) {
    return error_number(body, "code") == kInvalidParameter &&
           (error_number(body, "error_subcode") == kObjectMissing ||
            reason(body).find("does not exist") != std::string::npos);
}

Answer publish_when_ready(const std::function<Answer()>& publish, GraphError not_ready,
                          const std::function<std::optional<PlatformFailure>()>& wait_until_ready) {
    auto answer = publish();
    if (!answer.failure || error_number(answer.body, "code") != not_ready.code ||
        error_number(answer.body, "error_subcode") != not_ready.subcode)
        return answer;
    if (auto failure = wait_until_ready()) {
        answer.failure = std::move(failure);
        return answer;
    }
    return publish();
}

std::optional<long long> insight_value(const json& data, std::string_view name) {
    const auto count = [](const json& holder) -> std::optional<long long> {
        if (!holder.is_object() || !holder.contains("value") ||
            !holder["value"].is_number_integer() || holder["value"].get<long long>() < 0)
            return std::nullopt;
        return holder["value"].get<long long>();
    };
    if (!data.is_array()) return std::nullopt;
    for (const auto& metric : data) {
        if (!metric.is_object() || json_text(metric, "name") != name) continue;
        if (metric.contains("total_value")) return count(metric["total_value"]);
        if (metric.contains("values") && metric["values"].is_array() && !metric["values"].empty())
            return count(metric["values"].back());
    }
    return std::nullopt;
}

bool is_graph_id(std::string_view text) {
    return !text.empty() && text.size() <= 30 &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string graph_id(const json& object, const char* name, bool (*is_id)(std::string_view)) {
    if (!object.is_object() || !object.contains(name)) return {};
    const json& value = object[name];
    if (value.is_number_unsigned()) return std::to_string(value.get<unsigned long long>());
    if (value.is_number_integer() && value.get<long long>() >= 0)
        return std::to_string(value.get<long long>());
    if (value.is_string() && is_id(value.get<std::string>())) return value.get<std::string>();
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

http::HeaderList bearer(const std::string& token) {
    return {{"Authorization", "Bearer " + token}};
}

std::optional<std::string> next_cursor(const nlohmann::json& body) {
    if (!body.is_object() || !body.contains("paging")) return std::nullopt;
    const auto& paging = body["paging"];
    if (!paging.is_object() || !paging.contains("next") || !paging.contains("cursors") ||
        !paging["cursors"].is_object())
        return std::nullopt;
    auto after = json_text(paging["cursors"], "after");
    if (after.empty()) return std::nullopt;
    return after;
}

}  // namespace squawk::social::meta_graph
