// The caller's own workspace and key (GET /me) and its wallet (GET /me/balance); any valid key.
#pragma once

#include "api/server/request_context.hpp"
#include "api/server/services.hpp"

namespace squawk::api::handlers {

Reply get_me(const RequestContext& ctx, Services& services);
Reply get_balance(const RequestContext& ctx, Services& services);

}  // namespace squawk::api::handlers
