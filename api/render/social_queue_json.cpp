#include "api/render/social_queue_json.hpp"

namespace squawk::api::render {

nlohmann::json queue_json(const social::PostingQueue& q) {
    return {{"id", q.id},
            {"name", q.name},
            {"timezone", q.timezone},
            {"slots", social::slots_json(q.slots)},
            {"created_at", time::format_iso8601(q.created_at)},
            {"updated_at", time::format_iso8601(q.updated_at)}};
}

nlohmann::json queue_preview_json(const social::FreeSlots& found) {
    nlohmann::json slots = nlohmann::json::array();
    for (const auto instant : found.slots) slots.push_back(time::format_iso8601(instant));
    return {{"queue_id", found.queue_id},
            {"count", slots.size()},
            {"slots", std::move(slots)},
            {"timezone", found.timezone}};
}

nlohmann::json queue_next_slot_json(const social::FreeSlots& found) {
    return {
        {"queue_id", found.queue_id},
        {"slot", found.slots.empty() ? nlohmann::json(nullptr)
                                     : nlohmann::json(time::format_iso8601(found.slots.front()))},
        {"timezone", found.timezone}};
}

}  // namespace squawk::api::render
