// How Meta's Graph API answers, as Threads, Facebook and Instagram share it: the object asked
// for, or {error: {message, type, code, error_subcode}} whose code may mean throttling under any
// status or a dead token (190). Also the ids and times it writes. What one platform adds (its
// version, its speaker, more throttle codes, a wider id) stays with that platform.
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace squawk::social::meta_graph {

// An integer member ("code", "error_subcode") of an error answer's error object; 0 when absent.
long long error_number(const nlohmann::json& body, const char* name);
// The message of an error answer; "" when it gives none.
std::string reason(const nlohmann::json& body);
// Whether an error answer's code is one of the rate limits every Meta platform shares.
bool throttled(const nlohmann::json& body);

// Whether an answer is the object asked for.
bool is_object(long http_status, const nlohmann::json& body);
// Whether an answer of a token endpoint carries an access_token.
bool is_token(long http_status, const nlohmann::json& body);

// The answer shapes of the Graph API proper and of its token endpoint, from `speaker`
// ("Facebook", "Threads' token endpoint").
constexpr AnswerShape object_answer(std::string_view speaker,
                                    bool (*is_throttled)(const nlohmann::json&) = throttled) {
    return {.speaker = speaker, .accepted = is_object, .reason = reason, .throttled = is_throttled};
}
constexpr AnswerShape token_answer(std::string_view speaker) {
    return {.speaker = speaker, .accepted = is_token, .reason = reason, .throttled = throttled};
}

// An answer of `shape`: the object, or why there is none. A dead token's refusal names the
// access_token field, the one the user fixes by connecting again.
Answer read(const http::Response& response, const AnswerShape& shape);

// The wait X-Business-Use-Case-Usage asks of a throttled caller: Meta puts it there, not in
// Retry-After, as {"<id>": [{"type": "pages", ..., "estimated_time_to_regain_access": minutes}]},
// the longest of them counting. Nothing when the header names none.
std::optional<std::chrono::minutes> business_use_case_wait(const http::Response& response);

// Whether an error answer says the object named is not there (or not this token's to see).
bool names_missing_object(const nlohmann::json& body);

// An error answer's code and subcode, as a platform names one of its own refusals.
struct GraphError {
    long long code;
    long long subcode;
};

// The answer of `publish` (a container's publish call). A container is ready by then as a rule, so
// its status is read only when the answer is the platform's `not_ready` refusal: then
// `wait_until_ready` (nothing once it is, or why it never will be) and `publish` again.
Answer publish_when_ready(const std::function<Answer()>& publish, GraphError not_ready,
                          const std::function<std::optional<PlatformFailure>()>& wait_until_ready);

// Whether `text` is a Graph id: up to 30 digits.
bool is_graph_id(std::string_view text);
// The Graph id in member `name` of `object`, written as a string `is_id` accepts or (user_id of
// the token endpoint) a number; "" when it is absent or neither.
std::string graph_id(const nlohmann::json& object, const char* name,
                     bool (*is_id)(std::string_view) = is_graph_id);

// The value of metric `name` in an insights answer's data, [{name, total_value: {value}} or
// {name, values: [{value}]}], the latest when there are several; nothing when it is absent or not
// a count.
std::optional<long long> insight_value(const nlohmann::json& data, std::string_view name);

// The `after` cursor of a listing's paging when another page follows: the Graph API gives the
// cursor on every page but a `next` link only when there is more.
std::optional<std::string> next_cursor(const nlohmann::json& body);

// A Graph timestamp (2026-11-23T10:00:00+0000); nothing when it does not parse.
std::optional<time::TimePoint> parse_graph_time(std::string_view text);

// The Authorization header the Graph API takes a token in.
http::HeaderList bearer(const std::string& token);

}  // namespace squawk::social::meta_graph
