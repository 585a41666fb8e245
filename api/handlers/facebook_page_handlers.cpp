// Facebook Page management and the Reel limit of a connected facebook account (spec 4.3, 8.2):
// GET/PATCH .../facebook/page/settings, POST .../facebook/page/picture and .../cover, GET
// .../facebook/reel-limit. Scopes social:read / social:write; an account of another workspace or
// platform is 404.
#include "api/handlers/route_families.hpp"

#include "api/server/services.hpp"
#include "api/server/validation.hpp"
#include "common/extensions/platforms/facebook/page_service.hpp"

#include <array>

namespace squawk::api::handlers {
namespace {

// Facebook's own bounds: about 255 characters; the long description and addresses are held to
// what a Page shows.
constexpr size_t kMaxAboutChars = 255;
constexpr size_t kMaxDescriptionChars = 5000;
constexpr size_t kMaxWebsiteChars = 1000;
constexpr size_t kMaxPhoneChars = 30;
constexpr size_t kMaxEmails = 5;
constexpr size_t kMaxEmailChars = 254;
constexpr size_t kMaxUrlChars = 2048;
constexpr long long kDefaultOffsetY = 50;

social::facebook::PageService pages(Services& services) {
    return social::facebook::PageService(services.mysql, services.config, services.http);
}

Reply page_settings(const RequestContext& ctx, Services& services) {
    Validator query(ctx.query);
    query.finish();
    return Reply::ok(pages(services).settings(ctx.workspace_id, ctx.param("account_id")));
}

Reply update_page_settings(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    social::facebook::PageSettingsChange change;
    change.about = body.optional_string("about", kMaxAboutChars);
    change.description = body.optional_string("description", kMaxDescriptionChars);
    change.website = body.optional_string("website", kMaxWebsiteChars);
    change.phone = body.optional_string("phone", kMaxPhoneChars);
    change.emails = body.optional_string_array("emails", kMaxEmails, kMaxEmailChars);
    body.reject_unknown_fields();
    body.finish();
    return Reply::ok(
        pages(services).update_settings(ctx.workspace_id, ctx.param("account_id"), change));
}

Reply set_page_picture(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    const auto url = body.required_string("url", kMaxUrlChars);
    body.reject_unknown_fields();
    body.finish();
    return Reply::ok(pages(services).set_picture(ctx.workspace_id, ctx.param("account_id"), url));
}

Reply set_page_cover(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    const auto url = body.required_string("url", kMaxUrlChars);
    const auto offset_y = body.optional_integer("offset_y", 0, 100).value_or(kDefaultOffsetY);
    body.reject_unknown_fields();
    body.finish();
    return Reply::ok(pages(services).set_cover(ctx.workspace_id, ctx.param("account_id"), url,
                                               static_cast<int>(offset_y)));
}

Reply reel_limit(const RequestContext& ctx, Services& services) {
    Validator query(ctx.query);
    query.finish();
    const auto usage = pages(services).reel_limit(ctx.workspace_id, ctx.param("account_id"));
    return Reply::ok({{"account_id", ctx.param("account_id")},
                      {"limit", usage.limit},
                      {"used", usage.used},
                      {"remaining", usage.remaining},
                      {"next_available_at", time::format_iso8601(usage.next_available_at)}});
}

}  // namespace

template <>
std::span<const Route> routes<Family::facebook_pages>() {
    constexpr Access kRead = Access::needs("social:read");
    constexpr Access kWrite = Access::needs("social:write");
    static constexpr std::array kRoutes{
        Route::get("/v1/social/accounts/{account_id}/facebook/page/settings", kRead, page_settings),
        Route::patch("/v1/social/accounts/{account_id}/facebook/page/settings", kWrite,
                     update_page_settings),
        Route::post("/v1/social/accounts/{account_id}/facebook/page/picture", kWrite,
                    set_page_picture),
        Route::post("/v1/social/accounts/{account_id}/facebook/page/cover", kWrite, set_page_cover),
        Route::get("/v1/social/accounts/{account_id}/facebook/reel-limit", kRead, reel_limit),
    };
    return kRoutes;
}

}  // namespace squawk::api::handlers
