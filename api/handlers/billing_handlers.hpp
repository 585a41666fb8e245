// The caller's wallet and usage: GET /me/billing (spec 2.5) and GET /me/usage (spec 2.6).
// Under X-Profile-Id they still describe the caller's own account, which pays for everything.
#pragma once

#include "api/server/request_context.hpp"
#include "api/server/services.hpp"

namespace squawk::api::handlers {

Reply get_billing(const RequestContext& ctx, Services& services);
Reply get_usage(const RequestContext& ctx, Services& services);

}  // namespace squawk::api::handlers
