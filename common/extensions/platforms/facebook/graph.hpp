// How the Facebook Graph API answers: the object asked for, or {error: {message, type, code,
// error_subcode, fbtrace_id}} whose code may mean throttling (4, 17, 32, 613) under any status, a
// dead token (190) or a missing permission (10, 200-299). Also the ids and times it writes.
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace squawk::social::facebook {

// The Graph API version every path is under.
inline constexpr std::string_view kGraphVersion = "/v19.0/";

// An answer of the Graph API: the object, or why there is none. A dead token's refusal names the
// access_token field; throttling waits as long as the usage headers say.
Answer read_object(const http::Response& response);
// An answer of the token endpoint: one carrying an access_token, or why there is none.
Answer read_token(const http::Response& response);

// Whether an error answer says the object named is not there (or not this token's to see).
bool names_missing_object(const nlohmann::json& body);

// The Graph id in member `name` of `object`: digits, or a Page post's {page}_{post}; "" when it
// is absent or neither.
std::string graph_id(const nlohmann::json& object, const char* name);
bool is_graph_id(std::string_view text);

// A Graph timestamp (2026-11-23T10:00:00+0000); nothing when it does not parse.
std::optional<time::TimePoint> parse_graph_time(std::string_view text);

// A failure that is the platform's "no" with no HTTP answer behind it (a check before a call).
PlatformFailure refusal(std::string reason, long http_status = 0);
// The failure of a step that publishes nothing by itself (an upload, an unpublished photo): the
// post surely was not published, so it is not an unknown outcome.
PlatformFailure nothing_published(PlatformFailure failure);

}  // namespace squawk::social::facebook
