// What every connector shares to talk to its platform's HTTP API: the configured base URL and
// timeout, and one reading of answers into a payload or a PlatformFailure (429, Retry-After, 5xx).
#pragma once

#include "common/domain/social/connector.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace squawk::social {

// A platform's HTTP API as configured: every call goes to its base URL with its timeout through
// the one HTTP client.
class PlatformApi {
  public:
    PlatformApi(const config::PlatformSettings& settings, http::Client& http)
        : base_(settings.api_base_url), timeout_(settings.timeout_ms), http_(http) {}

    // `path` is appended to the base URL, unless it is a full http(s) URL already (an upload
    // address the platform handed out, a token endpoint on its own host); `body` is sent as JSON
    // unless it is null.
    http::Response send(const char* method, const std::string& path, http::HeaderList headers,
                        const nlohmann::json& body = nullptr);
    // The same with a body already encoded (a multipart form) of `content_type`.
    http::Response send(const char* method, const std::string& path, http::HeaderList headers,
                        const std::string& content_type, std::string body);
    // Whether `url` (an address the platform handed out) is on the base URL's origin: only
    // there does a connector send the account's credentials.
    bool on_own_origin(std::string_view url) const;

  private:
    std::string base_;
    int timeout_;
    http::Client& http_;
};

// The failure an HTTP exchange without a usable answer stands for.
PlatformFailure transport_failure(const http::Response& response);
// Seconds from a Retry-After header value in delta seconds, if it parses.
std::optional<std::chrono::seconds> retry_after_header(const http::Response& response);
// Seconds until the Unix time a rate-limit header names (Bluesky's ratelimit-reset, X's
// x-rate-limit-reset), if it parses; zero when that time has passed.
std::optional<std::chrono::seconds> until_reset_header(const http::Response& response,
                                                       std::string_view lower_case_name);
// What an HTTP answer other than the platform's success shape means: 429 and 5xx were not
// accepted (safe to retry), a 2xx the connector cannot read has an unknown outcome, any other
// status is a refusal.
FailureKind failure_kind_for_status(long http_status);
// A failure of `kind` that a connector names itself (a check before a call, an answer that does
// not say what it should), rather than one read from an error answer.
PlatformFailure failure_of(FailureKind kind, std::string reason, long http_status = 0);
// The platform's "no" for good, worked out by the connector; `field` is the connect field to fix.
PlatformFailure refusal(std::string reason, long http_status = 0, std::string field = "");
// The failure of a step that publishes nothing by itself (an upload, a container, a status read):
// whatever happened, the post surely was not published, so it is safe to retry rather than an
// unknown outcome.
PlatformFailure nothing_published(PlatformFailure failure);
// Authorization: Bearer with the credentials' access_token (empty when there is none, which the
// platform refuses as any bad token).
http::HeaderList bearer(const Credentials& credentials);
// The string member `name` of a JSON object, or "" when it is absent or not a string.
std::string json_text(const nlohmann::json& object, const char* name);
// The integer member `name` of a JSON object (a count an API reports), or nothing when it is
// absent or not an integer.
std::optional<long long> json_integer(const nlohmann::json& object, const char* name);

// How a platform's API answers, as data for read_answer: its success shape and where an error
// body keeps the reason and the delay to wait.
struct AnswerShape {
    std::string_view speaker;  // "Telegram" in "Telegram answered HTTP 502"
    // Whether an answer of this status and (parsed) body is the platform's success shape.
    bool (*accepted)(long http_status, const nlohmann::json& body) = nullptr;
    // The member holding a success's payload ("result" for the Bot API); null: the whole body.
    const char* payload = nullptr;
    // The platform's reason in an error body; "" when it gives none.
    std::string (*reason)(const nlohmann::json& body) = nullptr;
    // The delay a throttling answer's body asks for, when the platform puts it there; null or
    // nullopt: the Retry-After header.
    std::optional<std::chrono::seconds> (*retry_after)(const nlohmann::json& body) = nullptr;
    // Whether an error body means "slow down" although its status is not 429 (Graph API codes).
    bool (*throttled)(const nlohmann::json& body) = nullptr;
    // What an error answer of this status means, when not throttled.
    FailureKind (*kind)(long http_status) = failure_kind_for_status;
};

// A platform's answer: its payload (or, with a failure, the parsed error body), or why there is
// none.
struct Answer {
    nlohmann::json body;
    std::optional<PlatformFailure> failure;
};

Answer read_answer(const http::Response& response, const AnswerShape& shape);

}  // namespace squawk::social
