// How Pinterest's API v5 answers: the object asked for, or {code, message} with the HTTP status
// saying what went wrong (401 a token that no longer works, 403 a scope not granted, 429 a rate
// limit whose wait the Retry-After or x-ratelimit-reset header gives).
#pragma once

#include "common/domain/social/oauth_grant.hpp"
#include "common/domain/social/platform_api.hpp"

namespace squawk::social::pinterest {

// An answer carrying a JSON object (a 2xx), or why there is none. A 401's refusal names the
// access_token field.
Answer read_object(const http::Response& response);

// POST /v5/oauth/token, where the application authenticates with HTTP Basic and refusals are
// worded as {code, message} like the rest of the API.
extern const TokenEndpoint kTokenEndpoint;

}  // namespace squawk::social::pinterest
