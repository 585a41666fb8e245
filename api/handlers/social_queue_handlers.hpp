// Posting queues: weekly slots in a time zone, their preview and next free slot (issue 4;
// scopes social:read / social:write).
#pragma once

#include "api/server/request_context.hpp"
#include "api/server/services.hpp"

namespace squawk::api::handlers {

Reply create_queue(const RequestContext& ctx, Services& services);
Reply list_queues(const RequestContext& ctx, Services& services);
Reply get_queue(const RequestContext& ctx, Services& services);
Reply update_queue(const RequestContext& ctx, Services& services);
Reply delete_queue(const RequestContext& ctx, Services& services);
Reply preview_queue(const RequestContext& ctx, Services& services);
Reply queue_next_slot(const RequestContext& ctx, Services& services);

}  // namespace squawk::api::handlers
