#include "api/handlers/profile_handlers.hpp"

#include "api/server/pagination.hpp"
#include "api/server/request_headers.hpp"
#include "api/server/validation.hpp"
#include "common/core/error/api_error.hpp"
#include "common/core/log/logger.hpp"
#include "common/domain/auth/identity_epoch.hpp"
#include "common/domain/profiles/profile_repository.hpp"

namespace squawk::api::handlers {
namespace {

constexpr size_t kMaxName = 200;
constexpr size_t kMaxExternalId = 200;

ApiError profile_not_found() {
    return ApiError(ErrorCode::NotFound, "No profile with this id.");
}

long long profile_id(const RequestContext& ctx) {
    const auto id = parse_profile_id(ctx.param("id"));
    if (!id) throw profile_not_found();
    return *id;
}

profiles::Profile found_or_404(std::optional<profiles::Profile> p) {
    if (!p) throw profile_not_found();
    return *p;
}

void announce_identity_change(Services& services, const std::string& request_id) {
    try {
        services.redis.run([](redis::RedisClient& r) { auth::IdentityEpoch::announce(r); });
    } catch (const redis::RedisUnavailable& e) {
        log::warn(
            "renamed, but API processes may show the old name for up to "
            "api.key_cache_seconds: redis unavailable",
            {{"request_id", request_id}, {"error", e.what()}});
    }
}

}  // namespace

Reply create_profile(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    const std::string name = body.required_string("name", kMaxName);
    const auto external_id = body.optional_string("external_id", kMaxExternalId);
    body.reject_unknown_fields();
    body.finish();
    const auto created = services.mysql.transaction([&](db::Session& s) {
        return profiles::ProfileRepository::create(s, ctx.caller_workspace_id, name, external_id);
    });
    return Reply::ok(profiles::to_api_json(created), 201);
}

Reply list_profiles(const RequestContext& ctx, Services& services) {
    Validator query(ctx.query);
    const PageRequest page = read_page(query);
    query.finish();
    const auto found = services.mysql.run([&](db::Session& s) {
        return profiles::ProfileRepository::list(s, ctx.caller_workspace_id, page.offset(),
                                                 page.per_page);
    });
    nlohmann::json items = nlohmann::json::array();
    for (const auto& p : found.items) items.push_back(profiles::to_api_json(p));
    return Reply::page(std::move(items), pagination_json(page, found.total));
}

Reply get_profile(const RequestContext& ctx, Services& services) {
    const long long id = profile_id(ctx);
    const auto p = found_or_404(services.mysql.run([&](db::Session& s) {
        return profiles::ProfileRepository::find(s, ctx.caller_workspace_id, id);
    }));
    return Reply::bare_object(profiles::to_api_json(p));
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
    const auto p = found_or_404(services.mysql.transaction([&](db::Session& s) {
        return profiles::ProfileRepository::update(s, ctx.caller_workspace_id, id, changes);
    }));
    // A rename changes the profile's workspace name, which API processes cache for GET /me.
    if (changes.name) announce_identity_change(services, ctx.request_id);
    return Reply::ok(profiles::to_api_json(p));
}

Reply delete_profile(const RequestContext& ctx, Services& services) {
    const long long id = profile_id(ctx);
    Validator body(ctx.body);
    const auto confirm = body.required_string("confirm", 16);
    if (!confirm.empty() && confirm != "DELETE") body.reject("confirm", "must be \"DELETE\"");
    body.reject_unknown_fields();
    body.finish();
    const bool removed = services.mysql.transaction([&](db::Session& s) {
        return profiles::ProfileRepository::remove(s, ctx.caller_workspace_id, id);
    });
    if (!removed) throw profile_not_found();
    return Reply::ok({{"id", id}, {"deleted", true}});
}

Reply pause_profile(const RequestContext& ctx, Services& services) {
    const long long id = profile_id(ctx);
    const auto p = found_or_404(services.mysql.transaction([&](db::Session& s) {
        return profiles::ProfileRepository::set_paused(s, ctx.caller_workspace_id, id, true);
    }));
    return Reply::ok(profiles::to_api_json(p));
}

Reply resume_profile(const RequestContext& ctx, Services& services) {
    const long long id = profile_id(ctx);
    const auto p = found_or_404(services.mysql.transaction([&](db::Session& s) {
        return profiles::ProfileRepository::set_paused(s, ctx.caller_workspace_id, id, false);
    }));
    return Reply::ok(profiles::to_api_json(p));
}

}  // namespace squawk::api::handlers
