// GET /logs (logs:read): the caller's own API requests, newest first, with filters.
#pragma once

#include "api/server/request_context.hpp"
#include "api/server/services.hpp"

namespace squawk::api::handlers {

Reply list_request_logs(const RequestContext& ctx, Services& services);

}  // namespace squawk::api::handlers
