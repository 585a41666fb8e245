// Social posts (issue 4, spec 4.1 and 4.3): create, schedule, bulk, list, read, change, edit
// once published, metadata, cancel or unpublish, stop recycling. Scopes social:read / :write.
#pragma once

#include "api/server/request_context.hpp"
#include "api/server/services.hpp"

namespace squawk::api::handlers {

Reply create_post(const RequestContext& ctx, Services& services);
Reply schedule_post(const RequestContext& ctx, Services& services);
Reply bulk_posts(const RequestContext& ctx, Services& services);
Reply validate_bulk_posts(const RequestContext& ctx, Services& services);
Reply list_posts(const RequestContext& ctx, Services& services);
Reply get_post(const RequestContext& ctx, Services& services);
Reply update_post(const RequestContext& ctx, Services& services);
Reply edit_post(const RequestContext& ctx, Services& services);
Reply update_post_metadata(const RequestContext& ctx, Services& services);
Reply delete_post(const RequestContext& ctx, Services& services);
Reply stop_post_recycling(const RequestContext& ctx, Services& services);

}  // namespace squawk::api::handlers
