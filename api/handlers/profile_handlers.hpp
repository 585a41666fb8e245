// Profiles (spec 2.7, 4.1, 4.3): create, list, read (a bare object), rename, delete with
// confirmation, pause and resume. Always scoped to the caller's own workspace.
#pragma once

#include "api/server/request_context.hpp"
#include "api/server/services.hpp"

namespace squawk::api::handlers {

Reply create_profile(const RequestContext& ctx, Services& services);
Reply list_profiles(const RequestContext& ctx, Services& services);
Reply get_profile(const RequestContext& ctx, Services& services);
Reply update_profile(const RequestContext& ctx, Services& services);
Reply delete_profile(const RequestContext& ctx, Services& services);
Reply pause_profile(const RequestContext& ctx, Services& services);
Reply resume_profile(const RequestContext& ctx, Services& services);

}  // namespace squawk::api::handlers
