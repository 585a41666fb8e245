// Importing posts published natively on connected accounts (issue 4; scope social:write).
#pragma once

#include "api/server/request_context.hpp"
#include "api/server/services.hpp"

namespace squawk::api::handlers {

// POST /social/posts/sync-external: 202 with the job that lists and imports them.
Reply sync_external_posts(const RequestContext& ctx, Services& services);

}  // namespace squawk::api::handlers
