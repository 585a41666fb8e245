// Connected social accounts and account groups (issue 4; scopes social:read / social:write).
// POST /social/connect/{platform}: any registered platform by its id or an alias; OAuth
// platforms through GET .../authorize and the platform's redirect to GET .../callback. A test
// key connects a sandbox account with {"sandbox": true, "name"} and no platform; every read
// names the key's AccountView, so live keys never see one.
#include "api/handlers/route_families.hpp"

#include "api/render/social_account_json.hpp"
#include "api/render/social_group_json.hpp"
#include "api/server/pagination.hpp"
#include "api/server/services.hpp"
#include "api/server/validation.hpp"
#include "common/core/config/config.hpp"
#include "common/core/error/api_error.hpp"
#include "common/domain/social/account_service.hpp"
#include "common/domain/social/group_service.hpp"
#include "common/domain/social/oauth_connect_service.hpp"

#include <array>

namespace squawk::api::handlers {
namespace {

constexpr size_t kMaxSandboxNameChars = 100;
// States and codes platforms send back are opaque; none is near this long.
constexpr size_t kMaxStateChars = 2048;
// Far above any configured group size; the service applies the configured limit.
constexpr size_t kMaxGroupIds = 10000;

social::AccountService accounts(Services& services) {
    return social::AccountService(services.mysql, services.redis, services.config, services.http);
}

social::GroupService groups(Services& services) {
    return social::GroupService(services.mysql, services.config.social);
}

std::span<const std::string_view> platform_ids() {
    static const std::vector<std::string_view> ids = [] {
        std::vector<std::string_view> out;
        for (const auto& p : social::registered_platforms()) out.push_back(p.id);
        return out;
    }();
    return ids;
}

// One page of accounts and the filter, read from the query.
struct AccountQuery {
    PageRequest page;
    std::string platform;
};

AccountQuery read_account_query(const RequestContext& ctx) {
    Validator query(ctx.query);
    AccountQuery q;
    q.page = read_page(query);
    q.platform = query.optional_enum("platform", platform_ids()).value_or("");
    query.finish();
    return q;
}

// A group's name and members; creating requires the name, an update at least one of both.
social::GroupChange read_group_change(const RequestContext& ctx, bool creating) {
    Validator body(ctx.body);
    social::GroupChange change;
    change.name = creating ? body.required_string("name", kMaxNameChars)
                           : body.optional_string("name", kMaxNameChars);
    change.account_ids =
        body.optional_string_array("account_ids", kMaxGroupIds, kMaxIdChars, {}, 0);
    body.reject_unknown_fields();
    body.finish();
    if (!change.name && !change.account_ids)
        throw validation_error({{"body", "give at least one of name, account_ids"}});
    return change;
}

social::AccountView view_of(const RequestContext& ctx) {
    return social::account_view(ctx.is_test);
}

// Refused to live keys before anything else: their accounts are real ones.
Reply connect_sandbox_account(const RequestContext& ctx, Services& services,
                              const social::PlatformFactory& platform, Validator& body) {
    if (!ctx.is_test)
        throw ApiError(ErrorCode::Forbidden, "Only a test key can connect a sandbox account.");
    const std::string name = body.required_string("name", kMaxSandboxNameChars);
    body.reject_unknown_fields();
    body.finish();
    return Reply::ok(
        render::account_json(accounts(services).connect_sandbox(ctx.workspace_id, platform, name)),
        201);
}

Reply connect_social_account(const RequestContext& ctx, Services& services) {
    const auto& platform = social::connectable_platform(ctx.param("platform"));
    Validator body(ctx.body);
    if (body.optional_bool("sandbox").value_or(false))
        return connect_sandbox_account(ctx, services, platform, body);
    social::Credentials credentials;
    for (const auto& field : platform.credential_fields) {
        const std::string name(field.name);
        if (auto value = body.optional_string(name, social::kMaxCredentialChars))
            credentials[name] = std::move(*value);
    }
    body.reject_unknown_fields();
    body.finish();
    const auto connected =
        accounts(services).connect(ctx.workspace_id, platform, std::move(credentials));
    return Reply::ok(render::account_json(connected.account), connected.reconnected ? 200 : 201);
}

social::OAuthConnectService oauth(Services& services) {
    return social::OAuthConnectService(services.mysql, services.redis, services.config,
                                       services.http);
}

Reply authorize_social_account(const RequestContext& ctx, Services& services) {
    const auto& platform = social::connectable_platform(ctx.param("platform"));
    Validator query(ctx.query);
    query.finish();
    const auto start = oauth(services).authorize(ctx.workspace_id, platform);
    return Reply::ok({{"platform", platform.id},
                      {"authorization_url", start.authorization_url},
                      {"state", start.state},
                      {"expires_at", time::format_iso8601(start.expires_at)}});
}

// Where the platform sends the user back: no key, the state names the workspace. Platforms add
// parameters of their own, which are ignored.
Reply finish_social_authorization(const RequestContext& ctx, Services& services) {
    const auto& platform = social::connectable_platform(ctx.param("platform"));
    Validator query(ctx.query);
    social::AuthorizationAnswer answer;
    answer.state = query.required_string("state", kMaxStateChars);
    answer.code = query.optional_string("code", kMaxStateChars);
    answer.error = query.optional_string("error", kMaxNameChars);
    answer.error_description = query.optional_string("error_description", kMaxNameChars);
    query.finish();
    const auto granted = oauth(services).complete(platform, answer);
    return Reply::ok(render::account_json(granted.account), granted.reconnected ? 200 : 201);
}

Reply list_social_accounts(const RequestContext& ctx, Services& services) {
    const auto q = read_account_query(ctx);
    const auto found = accounts(services).list(ctx.workspace_id, view_of(ctx), q.platform,
                                               q.page.offset(), q.page.per_page);
    return page_reply(q.page, found, render::account_json);
}

Reply social_accounts_health(const RequestContext& ctx, Services& services) {
    const auto q = read_account_query(ctx);
    const auto checked = accounts(services).check_health(ctx.workspace_id, view_of(ctx), q.platform,
                                                         q.page.offset(), q.page.per_page);
    return page_reply(q.page, checked, render::account_health_json);
}

// Spec 4.3: the days of history asked for, 1 to 365 (30 unless given).
Reply social_follower_stats(const RequestContext& ctx, Services& services) {
    Validator query(ctx.query);
    const auto days = query.optional_integer("days", 1, 365).value_or(30);
    query.finish();
    auto data = nlohmann::json::array();
    for (const auto& series :
         accounts(services).follower_stats(ctx.workspace_id, view_of(ctx), static_cast<int>(days)))
        data.push_back(render::follower_series_json(series));
    return Reply::ok({{"days", days}, {"accounts", std::move(data)}});
}

Reply rename_social_account(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    const std::string name = body.required_string("display_name", kMaxNameChars);
    body.reject_unknown_fields();
    body.finish();
    return Reply::ok(render::account_json(
        accounts(services).rename(ctx.workspace_id, view_of(ctx), ctx.param("account_id"), name)));
}

Reply move_social_account(const RequestContext& ctx, Services& services) {
    // Moving between profiles is profile management too (spec 4.3).
    if (!ctx.api_key().has_scope("profiles:manage"))
        throw ApiError(ErrorCode::InsufficientScope, {}, {{"required_scope", "profiles:manage"}});
    Validator body(ctx.body);
    const auto profile_id = body.optional_integer("profile_id", 1, INT64_MAX);
    if (!profile_id && !body.problems().count("profile_id"))
        body.reject("profile_id", "is required");
    body.reject_unknown_fields();
    body.finish();
    return Reply::ok(render::moved_account_json(
        accounts(services).move(ctx.workspace_id, view_of(ctx), ctx.caller_workspace_id,
                                ctx.param("account_id"), *profile_id),
        *profile_id));
}

Reply disconnect_social_account(const RequestContext& ctx, Services& services) {
    accounts(services).disconnect(ctx.workspace_id, view_of(ctx), ctx.param("account_id"));
    return Reply::ok({{"id", ctx.param("account_id")}, {"disconnected", true}});
}

Reply create_account_group(const RequestContext& ctx, Services& services) {
    const auto change = read_group_change(ctx, true);
    return Reply::ok(
        render::group_json(groups(services).create(ctx.workspace_id, view_of(ctx), change)), 201);
}

Reply list_account_groups(const RequestContext& ctx, Services& services) {
    Validator query(ctx.query);
    const PageRequest page = read_page(query);
    query.finish();
    const auto found =
        groups(services).list(ctx.workspace_id, view_of(ctx), page.offset(), page.per_page);
    return page_reply(page, found, render::group_json);
}

Reply get_account_group(const RequestContext& ctx, Services& services) {
    return Reply::ok(render::group_json(
        groups(services).get(ctx.workspace_id, view_of(ctx), ctx.param("group_id"))));
}

Reply update_account_group(const RequestContext& ctx, Services& services) {
    const auto change = read_group_change(ctx, false);
    return Reply::ok(render::group_json(
        groups(services).update(ctx.workspace_id, view_of(ctx), ctx.param("group_id"), change)));
}

Reply delete_account_group(const RequestContext& ctx, Services& services) {
    groups(services).remove(ctx.workspace_id, ctx.param("group_id"));
    return Reply::ok({{"id", ctx.param("group_id")}, {"deleted", true}});
}

}  // namespace

template <>
std::span<const Route> routes<Family::social_accounts>() {
    constexpr Access kRead = Access::needs("social:read");
    constexpr Access kWrite = Access::needs("social:write");
    // Social accounts belong to the workspace acted in, so X-Profile-Id targets a profile's.
    static constexpr std::array kRoutes{
        Route::post("/v1/social/connect/{platform}", kWrite, connect_social_account),
        Route::get("/v1/social/connect/{platform}/authorize", kWrite, authorize_social_account),
        // Open, so no key's rate limit applies; the state is the credential.
        Route::get("/v1/social/connect/{platform}/callback", Access::open_to_all(),
                   finish_social_authorization)
            .unlimited(),
        Route::get("/v1/social/accounts", kRead, list_social_accounts),
        Route::get("/v1/social/accounts/health", kRead, social_accounts_health),
        Route::get("/v1/social/accounts/follower-stats", kRead, social_follower_stats),
        Route::patch("/v1/social/accounts/{account_id}", kWrite, rename_social_account),
        // Also needs profiles:manage, checked by the handler (a route names one scope).
        Route::post("/v1/social/accounts/{account_id}/move", kWrite, move_social_account),
        Route::del("/v1/social/accounts/{account_id}", kWrite, disconnect_social_account),
        Route::get("/v1/social/account-groups", kRead, list_account_groups),
        Route::post("/v1/social/account-groups", kWrite, create_account_group),
        Route::get("/v1/social/account-groups/{group_id}", kRead, get_account_group),
        Route::patch("/v1/social/account-groups/{group_id}", kWrite, update_account_group),
        Route::del("/v1/social/account-groups/{group_id}", kWrite, delete_account_group),
    };
    return kRoutes;
}

}  // namespace squawk::api::handlers
