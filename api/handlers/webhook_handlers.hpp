// Webhook endpoints, their delivery log and replays (spec 4.2; scopes webhooks:read/write).
#pragma once

#include "api/server/request_context.hpp"
#include "api/server/services.hpp"

namespace squawk::api::handlers {

Reply list_webhooks(const RequestContext& ctx, Services& services);
Reply create_webhook(const RequestContext& ctx, Services& services);
Reply update_webhook(const RequestContext& ctx, Services& services);
Reply delete_webhook(const RequestContext& ctx, Services& services);
Reply test_webhook(const RequestContext& ctx, Services& services);
Reply rotate_webhook_secret(const RequestContext& ctx, Services& services);
Reply replay_dead_letters(const RequestContext& ctx, Services& services);
Reply webhook_logs(const RequestContext& ctx, Services& services);
Reply get_delivery(const RequestContext& ctx, Services& services);
Reply replay_delivery(const RequestContext& ctx, Services& services);

}  // namespace squawk::api::handlers
