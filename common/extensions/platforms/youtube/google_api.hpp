// How Google's APIs answer the YouTube connector: the resource asked for, or
// {error: {code, message, errors: [{reason, domain}]}} whose reason tells a spent quota or a rate
// limit (403, to wait for) from a scope the account did not grant (403, for good).
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <chrono>
#include <string_view>

namespace squawk::social::youtube {

inline constexpr std::string_view kReadScope = "https://www.googleapis.com/auth/youtube.readonly";
inline constexpr std::string_view kManageScope =
    "https://www.googleapis.com/auth/youtube.force-ssl";

// A YouTube Data API answer of 2xx carrying a JSON object: the resource, or why there is none.
// A dead token's refusal names the access_token field; a missing scope's names `scope`, the one
// the call needs.
Answer read_resource(const http::Response& response, std::string_view scope);

// The first errors[].reason of a Google error body; "" when it has none.
std::string error_reason(const nlohmann::json& body);

// How long until the daily quota resets: midnight Pacific time.
std::chrono::seconds until_quota_reset(time::TimePoint now);

}  // namespace squawk::social::youtube
