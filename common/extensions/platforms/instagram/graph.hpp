// How the Facebook Graph API answers Instagram calls: the object asked for, or {error: {message,
// type, code, error_subcode}} whose code says throttling (under any status, with the delay in
// X-Business-Use-Case-Usage), a dead token (190) or a permission the token lacks (10, 2xx).
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace squawk::social::instagram {

// The Graph API version every call is under (the consent page's address names it too).
inline constexpr std::string_view kGraphRoot = "/v19.0/";
inline constexpr std::string_view kTokenPath = "/v19.0/oauth/access_token";

// `rest` (an object, an edge, a query) under kGraphRoot.
std::string graph_path(std::string_view rest);
// The Authorization header the Graph API takes a user token in.
http::HeaderList bearer(const std::string& token);

// An answer of the Graph API: the object, or why there is none. A dead token's refusal names the
// access_token field; a refusal for a missing permission names `permission`, the one the call
// needs, so that the user knows what to grant when reconnecting.
Answer read_object(const http::Response& response, std::string_view permission);
// A listing answer ({data: [...]}), read the same way.
Answer read_list(const http::Response& response, std::string_view permission);

// The Graph id in member `name` of `object` (a string of digits or a number); "" otherwise.
std::string graph_id(const nlohmann::json& object, const char* name);
bool is_graph_id(std::string_view text);

// A Graph timestamp (2026-11-23T10:00:00+0000); nothing when it does not parse.
std::optional<time::TimePoint> parse_graph_time(std::string_view text);

// A non-negative count in member `name`; nothing when it is absent or not one.
std::optional<long long> count_of(const nlohmann::json& object, const char* name);

}  // namespace squawk::social::instagram
