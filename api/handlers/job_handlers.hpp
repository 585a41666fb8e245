// Polling, listing and cancelling asynchronous jobs, and the ping job that checks the job path
// end to end (scope jobs:read).
#pragma once

#include "api/server/request_context.hpp"
#include "api/server/services.hpp"

namespace squawk::api::handlers {

Reply get_job(const RequestContext& ctx, Services& services);
Reply list_jobs(const RequestContext& ctx, Services& services);
Reply cancel_job(const RequestContext& ctx, Services& services);
Reply submit_ping(const RequestContext& ctx, Services& services);

}  // namespace squawk::api::handlers
