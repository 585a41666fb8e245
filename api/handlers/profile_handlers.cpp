// Profiles (spec 2.7, 4.1, 4.3): create, list, read (a bare object), rename, delete with
// confirmation, pause and resume. Always scoped to the caller's own workspace.
#include "api/handlers/route_families.hpp"

#include "api/render/profile_json.hpp"
#include "api/server/pagination.hpp"
#include "api/server/request_headers.hpp"
#include "api/server/services.hpp"
#include "api/server/validation.hpp"
#include "common/domain/profiles/profile_service.hpp"

#include <array>

namespace squawk::api::handlers {
namespace {

constexpr size_t kMaxName = profiles::kMaxProfileName;
constexpr size_t kMaxExternalId = profiles::kMaxExternalId;

long long profile_id(const RequestContext& ctx) {
    const auto id = parse_profile_id(ctx.param("id"));
    if (!id) throw profiles::profile_not_found();
    return *id;
}

profiles::ProfileService profile_service(Services& services) {
    return profiles::ProfileService(services.mysql, services.redis);
}

Reply create_profile(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    const std::string name = body.required_string("name", kMaxName);
    const auto external_id = body.optional_string("external_id", kMaxExternalId);
    body.reject_unknown_fields();
    body.finish();
    return Reply::ok(render::profile_json(profile_service(services).create(ctx.caller_workspace_id,
                                                                           name, external_id)),
                     201);
}

Reply list_profiles(const RequestContext& ctx, Services& services) {
    Validator query(ctx.query);
    const PageRequest page = read_page(query);
    query.finish();
    const auto found =
        profile_service(services).list(ctx.caller_workspace_id, page.offset(), page.per_page);
    return page_reply(page, found, render::profile_json);
}

Reply get_profile(const RequestContext& ctx, Services& services) {
    return Reply::bare_object(render::profile_json(
        profile_service(services).get(ctx.caller_workspace_id, profile_id(ctx))));
}

Reply update_profile(const RequestContext& ctx, Services& services) {
    const long long id = profile_id(ctx);
    Validator body(ctx.body);
    profiles::ProfileChanges changes;
    if (ctx.body.is_object() && ctx.body.contains("name")) {
        changes.name = body.required_string("name", kMaxName);
    }
    if (ctx.body.is_object() && ctx.body.contains("external_id")) {
        changes.set_external_id = true;
        changes.external_id = body.optional_string("external_id", kMaxExternalId);
    }
    body.reject_unknown_fields();
    if (!changes.name && !changes.set_external_id)
        body.reject("name", "name or external_id is required");
    body.finish();
    return Reply::ok(render::profile_json(
        profile_service(services).update(ctx.caller_workspace_id, id, changes, ctx.request_id)));
}

Reply delete_profile(const RequestContext& ctx, Services& services) {
    const long long id = profile_id(ctx);
    Validator body(ctx.body);
    const auto confirm = body.required_string("confirm", 16);
    if (!confirm.empty() && confirm != "DELETE") body.reject("confirm", "must be \"DELETE\"");
    body.reject_unknown_fields();
    body.finish();
    profile_service(services).remove(ctx.caller_workspace_id, id);
    return Reply::ok({{"id", id}, {"deleted", true}});
}

Reply pause_profile(const RequestContext& ctx, Services& services) {
    return Reply::ok(render::profile_json(
        profile_service(services).set_paused(ctx.caller_workspace_id, profile_id(ctx), true)));
}

Reply resume_profile(const RequestContext& ctx, Services& services) {
    return Reply::ok(render::profile_json(
        profile_service(services).set_paused(ctx.caller_workspace_id, profile_id(ctx), false)));
}

}  // namespace

template <>
std::span<const Route> routes<Family::profiles>() {
    constexpr Access kRead = Access::needs("profiles:read");
    constexpr Access kManage = Access::needs("profiles:manage");
    static constexpr std::array kRoutes{
        Route::post("/v1/profiles", kManage, create_profile),
        Route::get("/v1/profiles", kRead, list_profiles),
        Route::get("/v1/profiles/{id}", kRead, get_profile),
        Route::patch("/v1/profiles/{id}", kManage, update_profile),
        Route::del("/v1/profiles/{id}", kManage, delete_profile),
        Route::post("/v1/profiles/{id}/pause", kManage, pause_profile),
        Route::post("/v1/profiles/{id}/resume", kManage, resume_profile),
    };
    return kRoutes;
}

}  // namespace squawk::api::handlers
