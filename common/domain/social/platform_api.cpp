#include "common/domain/social/platform_api.hpp"

#include "common/core/net/target_url.hpp"

#include <algorithm>
#include <charconv>

namespace squawk::social {

PlatformFailure transport_failure(const http::Response& response) {
    PlatformFailure f;
    f.http_status = response.status;
    if (response.request_sent) {
        f.kind = FailureKind::unknown_outcome;
        f.reason = response.timed_out
                       ? "no answer before the timeout after the request was sent"
                       : "the connection broke after the request was sent: " + response.error;
    } else {
        f.kind = FailureKind::not_accepted;
        f.reason = "the platform could not be reached: " + response.error;
    }
    return f;
}

bool PlatformApi::on_own_origin(std::string_view url) const {
    return net::same_origin(base_, url);
}

http::Response PlatformApi::send(const char* method, const std::string& path,
                                 http::HeaderList headers, const nlohmann::json& body) {
    if (body.is_null()) return send(method, path, std::move(headers), "", "");
    return send(method, path, std::move(headers), "application/json", body.dump());
}

http::Response PlatformApi::send(const char* method, const std::string& path,
                                 http::HeaderList headers, const std::string& content_type,
                                 std::string body) {
    http::Request r;
    r.method = method;
    const bool full = path.starts_with("https://") || path.starts_with("http://");
    r.url = full ? path : base_ + path;
    r.headers = std::move(headers);
    if (!content_type.empty()) r.headers.emplace_back("Content-Type", content_type);
    r.body = std::move(body);
    r.timeout = std::chrono::milliseconds(timeout_);
    return http_.send(std::move(r));
}

FailureKind failure_kind_for_status(long http_status) {
    if (http_status == 429 || http_status >= 500) return FailureKind::not_accepted;
    if (http_status >= 200 && http_status < 300) return FailureKind::unknown_outcome;
    return FailureKind::refused;
}

PlatformFailure failure_of(FailureKind kind, std::string reason, long http_status) {
    return PlatformFailure{kind, std::move(reason), std::nullopt, http_status, ""};
}

PlatformFailure refusal(std::string reason, long http_status, std::string field) {
    return PlatformFailure{FailureKind::refused, std::move(reason), std::nullopt, http_status,
                           std::move(field)};
}

PlatformFailure nothing_published(PlatformFailure failure) {
    if (failure.kind == FailureKind::unknown_outcome) failure.kind = FailureKind::not_accepted;
    return failure;
}

http::HeaderList bearer(const Credentials& credentials) {
    const auto token = credentials.find("access_token");
    return {{"Authorization", "Bearer " + (token == credentials.end() ? "" : token->second)}};
}

std::string json_text(const nlohmann::json& object, const char* name) {
    return object.is_object() && object.contains(name) && object[name].is_string()
               ? object[name].get<std::string>()
               : std::string();
}

std::optional<long long> json_integer(const nlohmann::json& object, const char* name) {
    if (!object.is_object() || !object.contains(name) || !object[name].is_number_integer())
        return std::nullopt;
    return object[name].get<long long>();
}

std::optional<std::chrono::seconds> retry_after_header(const http::Response& response) {
    const auto value = response.header("retry-after");
    if (!value) return std::nullopt;
    long long seconds = 0;
    const char* end = value->data() + value->size();
    if (std::from_chars(value->data(), end, seconds).ptr != end || seconds < 0) return std::nullopt;
    return std::chrono::seconds(seconds);
}

std::optional<std::chrono::seconds> until_reset_header(const http::Response& response,
                                                       std::string_view lower_case_name) {
    const auto value = response.header(lower_case_name);
    if (!value) return std::nullopt;
    long long reset = 0;
    const char* end = value->data() + value->size();
    if (std::from_chars(value->data(), end, reset).ptr != end) return std::nullopt;
    const long long now = time::to_unix_ms(time::now()) / 1000;
    return std::chrono::seconds(std::max(0LL, reset - now));
}

Answer read_answer(const http::Response& response, const AnswerShape& shape) {
    Answer a;
    if (response.status == 0) {
        a.failure = transport_failure(response);
        return a;
    }
    a.body = nlohmann::json::parse(response.body, nullptr, false);
    if (shape.accepted(response.status, a.body)) {
        if (shape.payload) a.body = nlohmann::json(a.body[shape.payload]);
        return a;
    }
    PlatformFailure f;
    f.http_status = response.status;
    f.reason = shape.reason(a.body);
    if (f.reason.empty())
        f.reason = std::string(shape.speaker) + " answered HTTP " + std::to_string(response.status);
    const bool throttled = response.status == 429 || (shape.throttled && shape.throttled(a.body));
    f.kind = throttled ? FailureKind::not_accepted : shape.kind(response.status);
    f.rate_limited = throttled;
    // 401 is HTTP's own word for credentials refused; a connector names its platform's others.
    if (response.status == 401) f.access = AccessLoss::token_refused;
    if (throttled) {
        if (shape.retry_after) f.retry_after = shape.retry_after(a.body);
        if (!f.retry_after) f.retry_after = retry_after_header(response);
    } else if (f.kind == FailureKind::unknown_outcome) {
        // Accepted, but the answer says nothing usable about what was done.
        f.reason = std::string(shape.speaker) + "'s answer could not be read";
    }
    a.failure = std::move(f);
    return a;
}

}  // namespace squawk::social
