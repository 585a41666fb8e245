// Applies the caller's request limit (spec 8.1) to one request and turns a refusal into
// 429 RATE_LIMIT_EXCEEDED; the decision also fills the X-RateLimit-* headers.
#pragma once

#include "api/server/route.hpp"
#include "api/server/services.hpp"
#include "common/core/rate_limit/rate_limiter.hpp"

#include <optional>

namespace squawk::api {

// Whether requests to `route` count toward a limit at all (the route is limited, limits are on).
bool route_is_limited(const Route& route, const Services& services);

// Counts the request and stores the decision in `decision`: nothing when the route is not
// limited, limits are off, or Redis cannot be reached (requests are let through then: losing the
// limiter must not take the API down). refuse_if_limited() then answers a refusal.
void apply_rate_limit(const Route& route, const RequestContext& context, Services& services,
                      std::optional<rate_limit::Decision>& decision);

// The same for a key taken from the cache under identity epoch `epoch`, confirmed current in the
// same Redis round trip. False, with nothing counted, when the epoch moved or Redis could not be
// asked: the key must then be authenticated afresh.
bool apply_rate_limit_if_epoch(const Route& route, const RequestContext& context,
                               Services& services, std::optional<rate_limit::Decision>& decision,
                               long long epoch);

// Throws 429 RATE_LIMIT_EXCEEDED when `decision` refused the request.
void refuse_if_limited(const std::optional<rate_limit::Decision>& decision);

}  // namespace squawk::api
