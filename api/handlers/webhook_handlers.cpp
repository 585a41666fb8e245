// Webhook endpoints, their delivery log and replays (spec 4.2; scopes webhooks:read/write).
#include "api/handlers/route_families.hpp"

#include "api/render/webhook_json.hpp"
#include "api/server/pagination.hpp"
#include "api/server/services.hpp"
#include "api/server/validation.hpp"
#include "common/core/config/config.hpp"
#include "common/core/error/api_error.hpp"
#include "common/domain/events/event_catalog.hpp"
#include "common/domain/webhooks/webhook_service.hpp"

#include <array>
#include <charconv>

namespace squawk::api::handlers {
namespace {

constexpr size_t kMaxUrlChars = 2048;
constexpr size_t kMaxEvents = 50;
constexpr size_t kMaxEventChars = 64;
constexpr std::array kSettableStatuses{webhooks::EndpointStatus::active,
                                       webhooks::EndpointStatus::paused};

webhooks::WebhookService webhook_service(Services& services) {
    return webhooks::WebhookService(services.mysql, services.config, services.http);
}

long long delivery_id(const RequestContext& ctx) {
    const std::string& text = ctx.param("delivery_id");
    long long id = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (ec != std::errc() || end != text.data() + text.size() || id <= 0)
        throw ApiError(ErrorCode::NotFound, "No delivery with this id.");
    return id;
}

Reply list_webhooks(const RequestContext& ctx, Services& services) {
    nlohmann::json items = nlohmann::json::array();
    for (const auto& e : webhook_service(services).list(ctx.workspace_id))
        items.push_back(render::endpoint_json(e));
    return Reply::ok(std::move(items));
}

Reply create_webhook(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    const std::string url = body.required_string("url", kMaxUrlChars);
    const auto names =
        body.optional_string_array("events", kMaxEvents, kMaxEventChars, events::catalog());
    if (!names && !body.problems().count("events")) body.reject("events", "is required");
    body.reject_unknown_fields();
    body.finish();
    return Reply::ok(render::endpoint_with_secret_json(
                         webhook_service(services).create(ctx.workspace_id, url, *names)),
                     201);
}

Reply update_webhook(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    webhooks::EndpointChange change;
    change.url = body.optional_string("url", kMaxUrlChars);
    change.events =
        body.optional_string_array("events", kMaxEvents, kMaxEventChars, events::catalog());
    change.status = body.optional_enum<webhooks::EndpointStatus>("status", kSettableStatuses);
    body.reject_unknown_fields();
    body.finish();
    if (!change.url && !change.events && !change.status)
        throw validation_error({{"body", "give at least one of url, events, status"}});
    return Reply::ok(render::endpoint_json(
        webhook_service(services).update(ctx.workspace_id, ctx.param("webhook_id"), change)));
}

Reply delete_webhook(const RequestContext& ctx, Services& services) {
    webhook_service(services).remove(ctx.workspace_id, ctx.param("webhook_id"));
    return Reply::ok({{"id", ctx.param("webhook_id")}, {"deleted", true}});
}

Reply test_webhook(const RequestContext& ctx, Services& services) {
    return Reply::ok(render::test_delivery_json(
        webhook_service(services).test(ctx.workspace_id, ctx.param("webhook_id"))));
}

Reply rotate_webhook_secret(const RequestContext& ctx, Services& services) {
    return Reply::ok(render::endpoint_with_secret_json(
        webhook_service(services).rotate_secret(ctx.workspace_id, ctx.param("webhook_id"))));
}

Reply replay_dead_letters(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    const auto since = body.optional_timestamp("since");
    if (!since && !body.problems().count("since")) body.reject("since", "is required");
    body.reject_unknown_fields();
    body.finish();
    const std::string& id = ctx.param("webhook_id");
    const auto replayed =
        webhook_service(services).replay_dead_letters(ctx.workspace_id, id, *since);
    return Reply::ok(render::replayed_dead_letters_json(id, *since, replayed));
}

Reply webhook_logs(const RequestContext& ctx, Services& services) {
    Validator query(ctx.query);
    const PageRequest page = read_page(query);
    webhooks::LogFilter filter;
    filter.endpoint_public_id = query.optional_string("webhook_id", 64).value_or("");
    filter.event_name = query.optional_enum("event", events::catalog()).value_or("");
    filter.status = query.optional_enum<webhooks::DeliveryStatus>("status");
    query.finish();
    const auto found =
        webhook_service(services).logs(ctx.workspace_id, filter, page.offset(), page.per_page);
    return page_reply(page, found, render::delivery_log_json);
}

Reply get_delivery(const RequestContext& ctx, Services& services) {
    return Reply::ok(render::delivery_log_json(
        webhook_service(services).delivery(ctx.workspace_id, delivery_id(ctx))));
}

Reply replay_delivery(const RequestContext& ctx, Services& services) {
    return Reply::ok(render::replayed_delivery_json(
        webhook_service(services).replay(ctx.workspace_id, delivery_id(ctx))));
}

}  // namespace

template <>
std::span<const Route> routes<Family::webhooks>() {
    constexpr Access kRead = Access::needs("webhooks:read");
    constexpr Access kWrite = Access::needs("webhooks:write");
    static constexpr std::array kRoutes{
        Route::get("/v1/webhooks", kRead, list_webhooks),
        Route::post("/v1/webhooks", kWrite, create_webhook),
        Route::get("/v1/webhooks/logs", kRead, webhook_logs),
        Route::get("/v1/webhooks/deliveries/{delivery_id}", kRead, get_delivery),
        Route::post("/v1/webhooks/deliveries/{delivery_id}/replay", kWrite, replay_delivery),
        Route::put("/v1/webhooks/{webhook_id}", kWrite, update_webhook),
        Route::del("/v1/webhooks/{webhook_id}", kWrite, delete_webhook),
        Route::post("/v1/webhooks/{webhook_id}/test", kWrite, test_webhook),
        Route::post("/v1/webhooks/{webhook_id}/rotate-secret", kWrite, rotate_webhook_secret),
        Route::post("/v1/webhooks/{webhook_id}/replay-dead-letters", kWrite, replay_dead_letters),
    };
    return kRoutes;
}

}  // namespace squawk::api::handlers
