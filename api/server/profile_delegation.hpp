// X-Profile-Id (spec 5.6): a key holding profiles:manage acts inside a profile its workspace
// owns. The request then targets the profile's workspace; billing, limits and usage stay on the
// caller, whose workspace is kept in RequestContext::caller_workspace_id.
#pragma once

#include "api/server/route.hpp"
#include "api/server/services.hpp"

#include <optional>
#include <string_view>

namespace squawk::api {

// Throws 403 on routes that refuse delegation or keys without profiles:manage, 400 on a
// malformed id, 404 for a profile the caller does not own and 409 for a paused one.
void act_in_profile(const Route& route, std::optional<std::string_view> header,
                    RequestContext& context, Services& services);

}  // namespace squawk::api
