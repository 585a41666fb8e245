#include "common/extensions/platforms/instagram/graph.hpp"

namespace squawk::social::instagram {
namespace {

using nlohmann::json;

// Instagram's business use case rate limit: "slow down", as the shared ones.
constexpr long long kBusinessUseCaseLimit = 80002;
// (#10) "Application does not have permission for this action" and the (#200)-(#299) family
// ("Requires ... permission").
constexpr long long kNoPermission = 10;
constexpr long long kPermissionsFirst = 200;
constexpr long long kPermissionsLast = 299;

bool throttled(const json& body) {
    return meta_graph::throttled(body) ||
           meta_graph::error_number(body, "code") == kBusinessUseCaseLimit;
}

constexpr AnswerShape kObjects = meta_graph::object_answer("Instagram", throttled);

constexpr AnswerShape kLists{
    .speaker = "Instagram",
    .accepted =
        [](long status, const json& body) {
            return meta_graph::is_object(status, body) && body.contains("data") &&
                   body["data"].is_array();
        },
    .reason = meta_graph::reason,
    .throttled = throttled,
};

Answer read(const http::Response& response, const AnswerShape& shape, std::string_view permission) {
    auto answer = meta_graph::read(response, shape);
    if (!answer.failure) return answer;
    const long long code = meta_graph::error_number(answer.body, "code");
    if (code == kNoPermission || (code >= kPermissionsFirst && code <= kPermissionsLast))
        answer.failure->reason += " (this needs the " + std::string(permission) +
                                  " permission: reconnect the account and grant it)";
    // A 503 may say when to come back too, which read_answer reads for throttling only.
    if (answer.failure->kind == FailureKind::not_accepted && !answer.failure->retry_after)
        answer.failure->retry_after = retry_after_header(response);
    // A wait of no minutes says nothing: the usual backoff serves.
    if (answer.failure->kind == FailureKind::not_accepted && !answer.failure->retry_after)
        if (const auto wait = meta_graph::business_use_case_wait(response);
            wait && wait->count() > 0)
            answer.failure->retry_after = *wait;
    return answer;
}

}  // namespace

std::string graph_path(std::string_view rest) {
    return std::string(kGraphRoot) + std::string(rest);
}

Answer read_object(const http::Response& response, std::string_view permission) {
    return read(response, kObjects, permission);
}

Answer read_list(const http::Response& response, std::string_view permission) {
    return read(response, kLists, permission);
}

std::optional<long long> count_of(const json& object, const char* name) {
    if (!object.is_object() || !object.contains(name) || !object[name].is_number_integer())
        return std::nullopt;
    const long long value = object[name].get<long long>();
    if (value < 0) return std::nullopt;
    return value;
}

}  // namespace squawk::social::instagram
