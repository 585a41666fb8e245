// Connected social accounts and account groups (issue 4; scopes social:read / social:write).
#pragma once

#include "api/server/request_context.hpp"
#include "api/server/services.hpp"

namespace squawk::api::handlers {

// POST /social/connect/{platform}: any registered platform by its id or an alias.
Reply connect_social_account(const RequestContext& ctx, Services& services);
Reply list_social_accounts(const RequestContext& ctx, Services& services);
Reply social_accounts_health(const RequestContext& ctx, Services& services);
Reply rename_social_account(const RequestContext& ctx, Services& services);
Reply move_social_account(const RequestContext& ctx, Services& services);
Reply disconnect_social_account(const RequestContext& ctx, Services& services);
Reply create_account_group(const RequestContext& ctx, Services& services);
Reply list_account_groups(const RequestContext& ctx, Services& services);
Reply get_account_group(const RequestContext& ctx, Services& services);
Reply update_account_group(const RequestContext& ctx, Services& services);
Reply delete_account_group(const RequestContext& ctx, Services& services);

}  // namespace squawk::api::handlers
