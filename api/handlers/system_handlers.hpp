// Routes that need no key: the health check, the OpenAPI document and the Prometheus metrics.
#pragma once

#include "api/server/request_context.hpp"
#include "api/server/services.hpp"

namespace squawk::api::handlers {

Reply health(const RequestContext& ctx, Services& services);
Reply openapi_document(const RequestContext& ctx, Services& services);
Reply metrics(const RequestContext& ctx, Services& services);

}  // namespace squawk::api::handlers
