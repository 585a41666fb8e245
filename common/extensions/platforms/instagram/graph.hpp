// What the Graph API adds for Instagram calls to Meta's (meta_graph): its version, its own
// throttle code (80002), the delay in X-Business-Use-Case-Usage, the permission a refusal for
// want of one (10, 2xx) names, listings and counts.
#pragma once

#include "common/domain/social/meta_graph.hpp"

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

// An answer of the Graph API: the object, or why there is none. A dead token's refusal names the
// access_token field; a refusal for a missing permission names `permission`, the one the call
// needs, so that the user knows what to grant when reconnecting.
Answer read_object(const http::Response& response, std::string_view permission);
// A listing answer ({data: [...]}), read the same way.
Answer read_list(const http::Response& response, std::string_view permission);

// A non-negative count in member `name`; nothing when it is absent or not one.
std::optional<long long> count_of(const nlohmann::json& object, const char* name);

}  // namespace squawk::social::instagram
