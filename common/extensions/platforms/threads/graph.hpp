// How the Threads Graph API answers: the object asked for, or {error: {message, type, code,
// error_subcode}} whose code may mean throttling under any status, or a dead token (190).
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace squawk::social::threads {

// An answer of the Graph API proper (/v1.0/...): the object, or why there is none. A dead token's
// refusal names the access_token field.
Answer read_object(const http::Response& response);
// An answer of the token endpoints: one carrying an access_token, or why there is none.
Answer read_token(const http::Response& response);

// Whether an error answer says the object named is not there (or not this token's to see).
bool names_missing_object(const nlohmann::json& body);

// The Graph id in member `name` of `object`, written as a string or (user_id of the token
// endpoint) a number; "" when it is absent, neither, or not digits.
std::string graph_id(const nlohmann::json& object, const char* name);
bool is_graph_id(std::string_view text);

// A Graph timestamp (2026-11-23T10:00:00+0000); nothing when it does not parse.
std::optional<time::TimePoint> parse_graph_time(std::string_view text);

}  // namespace squawk::social::threads
