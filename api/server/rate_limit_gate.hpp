// Applies the caller's request limit (spec 8.1) to one request and turns a refusal into
// 429 RATE_LIMIT_EXCEEDED; the decision also fills the X-RateLimit-* headers.
#pragma once

#include "api/server/route.hpp"
#include "api/server/services.hpp"
#include "common/rate_limit/rate_limiter.hpp"

#include <optional>

namespace squawk::api {

// Nothing when the route is not limited, limits are off, or Redis cannot be reached (requests
// are let through then: losing the limiter must not take the API down). Throws 429 on refusal
// after storing the decision in `decision`.
void apply_rate_limit(const Route& route, const RequestContext& context, Services& services,
                      std::optional<rate_limit::Decision>& decision);

}  // namespace squawk::api
