// The API's JSON for posting queues (spec 2.8): the queue with its weekly slots, and the free
// slots a walk found (preview, next slot).
#pragma once

#include "common/domain/social/queue_service.hpp"

#include <nlohmann/json.hpp>

namespace squawk::api::render {

nlohmann::json queue_json(const social::PostingQueue& q);
// queue_id, count, slots, timezone.
nlohmann::json queue_preview_json(const social::FreeSlots& found);
// queue_id, slot (null when the queue has no free slot ahead), timezone.
nlohmann::json queue_next_slot_json(const social::FreeSlots& found);

}  // namespace squawk::api::render
