// Posting queues: weekly slots in a time zone, their preview and next free slot (issue 4;
// scopes social:read / social:write).
#include "api/handlers/route_families.hpp"

#include "api/render/social_queue_json.hpp"
#include "api/server/pagination.hpp"
#include "api/server/path_ids.hpp"
#include "api/server/services.hpp"
#include "api/server/validation.hpp"
#include "common/domain/social/queue_service.hpp"

#include <array>

namespace squawk::api::handlers {
namespace {

constexpr size_t kMaxZoneChars = 64;

social::QueueService queues(Services& services) {
    return social::QueueService(services.mysql);
}

std::optional<std::vector<social::WeeklySlot>> read_slots(Validator& body) {
    const auto* items = body.optional_array("slots", 1, social::kMaxSlotsPerQueue);
    if (!items) return std::nullopt;
    std::vector<social::WeeklySlot> slots;
    for (size_t i = 0; i < items->size(); ++i) {
        const auto& item = (*items)[i];
        const std::string at = "slots[" + std::to_string(i) + "]";
        if (!item.is_object()) {
            body.reject(at, "must be an object with day and time");
            continue;
        }
        const auto* day_text = item.contains("day") && item["day"].is_string()
                                   ? &item["day"].get_ref<const std::string&>()
                                   : nullptr;
        const auto* time_text = item.contains("time") && item["time"].is_string()
                                    ? &item["time"].get_ref<const std::string&>()
                                    : nullptr;
        const auto day = day_text ? social::parse_weekday(*day_text) : std::nullopt;
        const auto minute = time_text ? social::parse_time_of_day(*time_text) : std::nullopt;
        if (!day) body.reject(at + ".day", "must be a weekday name, monday to sunday");
        if (!minute) body.reject(at + ".time", "must be a 24-hour time HH:MM");
        if (item.size() > 2) body.reject(at, "takes only day and time");
        if (day && minute) slots.push_back({*day, *minute});
    }
    return slots;
}

social::QueueChange read_change(Validator& body, bool creating) {
    social::QueueChange change;
    change.name = creating ? std::optional(body.required_string("name", kMaxNameChars))
                           : body.optional_string("name", kMaxNameChars);
    change.timezone = creating ? std::optional(body.required_string("timezone", kMaxZoneChars))
                               : body.optional_string("timezone", kMaxZoneChars);
    if (change.timezone && !change.timezone->empty() && !social::is_time_zone(*change.timezone))
        body.reject("timezone", "is not an IANA time zone name (such as Europe/Berlin)");
    change.slots = read_slots(body);
    if (creating && !change.slots) body.reject("slots", "is required");
    body.reject_unknown_fields();
    body.finish();
    return change;
}

Reply create_queue(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    const auto change = read_change(body, true);
    return Reply::ok(render::queue_json(queues(services).create(ctx.workspace_id, change)), 201);
}

Reply list_queues(const RequestContext& ctx, Services& services) {
    Validator query(ctx.query);
    const PageRequest page = read_page(query);
    query.finish();
    const auto found = queues(services).list(ctx.workspace_id, page.offset(), page.per_page);
    return page_reply(page, found, render::queue_json);
}

Reply get_queue(const RequestContext& ctx, Services& services) {
    return Reply::ok(render::queue_json(
        queues(services).get(ctx.workspace_id, integer_path_id(ctx, "queue_id"))));
}

Reply update_queue(const RequestContext& ctx, Services& services) {
    const long long id = integer_path_id(ctx, "queue_id");
    Validator body(ctx.body);
    const auto change = read_change(body, false);
    return Reply::ok(render::queue_json(queues(services).update(ctx.workspace_id, id, change)));
}

Reply delete_queue(const RequestContext& ctx, Services& services) {
    const long long id = integer_path_id(ctx, "queue_id");
    queues(services).remove(ctx.workspace_id, id);
    return Reply::ok({{"id", id}, {"deleted", true}});
}

Reply preview_queue(const RequestContext& ctx, Services& services) {
    const long long id = integer_path_id(ctx, "queue_id");
    Validator query(ctx.query);
    const auto count = query.optional_integer("count", 1, social::kMaxPreviewCount);
    query.finish();
    return Reply::ok(render::queue_preview_json(queues(services).preview(
        ctx.workspace_id, id, static_cast<int>(count.value_or(social::kDefaultPreviewCount)))));
}

Reply queue_next_slot(const RequestContext& ctx, Services& services) {
    return Reply::ok(render::queue_next_slot_json(
        queues(services).next_slot(ctx.workspace_id, integer_path_id(ctx, "queue_id"))));
}

}  // namespace

template <>
std::span<const Route> routes<Family::social_queues>() {
    constexpr Access kRead = Access::needs("social:read");
    constexpr Access kWrite = Access::needs("social:write");
    static constexpr std::array kRoutes{
        Route::get("/v1/social/queues", kRead, list_queues),
        Route::post("/v1/social/queues", kWrite, create_queue),
        Route::get("/v1/social/queues/{queue_id}", kRead, get_queue),
        Route::patch("/v1/social/queues/{queue_id}", kWrite, update_queue),
        Route::del("/v1/social/queues/{queue_id}", kWrite, delete_queue),
        Route::get("/v1/social/queues/{queue_id}/preview", kRead, preview_queue),
        Route::get("/v1/social/queues/{queue_id}/next-slot", kRead, queue_next_slot),
    };
    return kRoutes;
}

}  // namespace squawk::api::handlers
