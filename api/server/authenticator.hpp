// Turns a presented key into the stored ApiKey (counting the request toward the caller's rate
// limit on the way) and checks a route's access rule against it.
#pragma once

#include "api/server/route.hpp"
#include "api/server/services.hpp"
#include "common/core/rate_limit/rate_limiter.hpp"
#include "common/domain/auth/api_key.hpp"

#include <optional>
#include <string_view>

namespace squawk::api {

// Authenticates `key` into `context` (key, workspaces, test flag, identity epoch) and counts the
// request toward the route's rate limit, storing the decision (refuse_if_limited() answers a
// refusal). A key cached in this process costs at most one Redis round trip: the limiter's script
// confirms the identity epoch it was cached under; a busy bucket's lease, or on an unlimited route
// an epoch read moments ago (RecentEpoch), saves even that. Unknown and revoked keys are both
// INVALID_API_KEY, so a caller learns nothing about either.
void authenticate(const Route& route, std::string_view key, RequestContext& context,
                  Services& services, std::optional<rate_limit::Decision>& decision);

// Throws INSUFFICIENT_SCOPE (details.required_scope) when the key lacks the route's scope.
void authorize(const Access& access, const auth::ApiKey& key);

}  // namespace squawk::api
