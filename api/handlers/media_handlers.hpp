// Media records and their files: read (media:read), download (media:read), delete (media:write).
#pragma once

#include "api/server/request_context.hpp"
#include "api/server/services.hpp"

namespace squawk::api::handlers {

Reply get_media(const RequestContext& ctx, Services& services);
Reply download_media(const RequestContext& ctx, Services& services);
Reply delete_media(const RequestContext& ctx, Services& services);

}  // namespace squawk::api::handlers
