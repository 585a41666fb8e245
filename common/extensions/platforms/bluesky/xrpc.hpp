// How a PDS answers XRPC calls ({error, message} bodies, RateLimit-Reset) and what a failure of a
// step that publishes nothing by itself means, for every Bluesky call.
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <string>

namespace squawk::social::bluesky {

// The answer of an XRPC call: its output object, or why not. A 429 without Retry-After waits until
// the window's ratelimit-reset.
Answer read(const http::Response& response);

// The object member `name` of `object`; an empty object when there is none.
nlohmann::json object_at(const nlohmann::json& object, const char* name);

// An answer the connector cannot read.
PlatformFailure unreadable(std::string reason, FailureKind kind = FailureKind::not_accepted);

}  // namespace squawk::social::bluesky
