#include "api/server/profile_delegation.hpp"

#include "api/server/request_headers.hpp"
#include "common/core/error/api_error.hpp"
#include "common/domain/profiles/profile_repository.hpp"

namespace squawk::api {

void act_in_profile(const Route& route, std::optional<std::string_view> header,
                    RequestContext& context, Services& services) {
    if (!header) return;
    if (!route.accepts_profile)
        throw ApiError(ErrorCode::Forbidden, "This route does not accept X-Profile-Id.",
                       {{"header", "X-Profile-Id"}});
    if (!context.api_key().has_scope("profiles:manage"))
        throw ApiError(ErrorCode::InsufficientScope, {}, {{"required_scope", "profiles:manage"}});
    const auto id = parse_profile_id(*header);
    if (!id)
        throw ApiError(ErrorCode::InvalidRequest, "X-Profile-Id must be a positive integer.",
                       {{"header", "X-Profile-Id"}});
    const auto profile = services.mysql.run([&](db::Session& s) {
        return profiles::ProfileRepository::find(s, context.caller_workspace_id, *id);
    });
    if (!profile) throw ApiError(ErrorCode::NotFound, "No profile with this id.");
    if (profile->paused_for_billing)
        throw ApiError(ErrorCode::Conflict, "The profile is paused.",
                       {{"profile_id", profile->id}, {"status", profile->status}});
    context.workspace_id = profile->workspace_id;
    context.profile_id = profile->id;
}

}  // namespace squawk::api
