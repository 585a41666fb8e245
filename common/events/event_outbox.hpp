// The event outbox: a feature raises an event by inserting it in its own MySQL transaction, so the
// event exists exactly when the change it describes does. Dispatch to webhooks happens later.
#pragma once

#include "common/db/mysql_pool.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace squawk::events {

// Inserts the event (name from the catalog) and returns its public id ("evt_...").
std::string emit(db::Session& s, long long workspace_id, std::string_view name,
                 const nlohmann::json& data);

struct NewEvent {
    long long workspace_id = 0;
    std::string name;
    nlohmann::json data;
};

// emit() for many events in one statement (batched job outcomes); ids in the same order.
std::vector<std::string> emit_many(db::Session& s, const std::vector<NewEvent>& events);

// A pending row of the outbox, as the dispatcher reads it.
struct PendingEvent {
    long long id = 0;
    std::string public_id;
    long long workspace_id = 0;
    std::string name;
    std::string data;        // JSON text
    std::string created_at;  // ISO 8601
};

// The oldest undispatched events, locked against other dispatchers (SKIP LOCKED).
std::vector<PendingEvent> lock_undispatched(db::Session& s, int limit);
void mark_dispatched(db::Session& s, const std::vector<long long>& ids);

}  // namespace squawk::events
