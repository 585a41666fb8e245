// The event outbox: a feature raises an event by inserting it in its own MySQL transaction, so the
// event exists exactly when the change it describes does. Dispatch to webhooks happens later.
// An event no webhook endpoint can receive (events::Audience) is not written: webhooks are the
// outbox's only reader, and most job outcomes have no subscriber.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/events/event_audience.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::events {

// Inserts the event (name from the catalog) when an endpoint can receive it, and returns its
// public id ("evt_..."); nothing when there was no one to tell.
std::optional<std::string> emit(db::Session& s, long long workspace_id, std::string_view name,
                                const nlohmann::json& data);

struct NewEvent {
    long long workspace_id = 0;
    std::string name;
    nlohmann::json data;
};

// emit() for many events with one audience lookup and one statement (batched job outcomes).
void emit_many(db::Session& s, const std::vector<NewEvent>& events);
// emit_many() with the audience already read: a caller that asked first whether anyone listens
// reads only what it must tell them.
void emit_many(db::Session& s, const Audience& audience, const std::vector<NewEvent>& events);

struct RecordedEvent {
    long long id = 0;
    std::string public_id;
};

// An event for one endpoint chosen by the caller (webhook.test): written already dispatched, so it
// never fans out, and written whoever subscribes.
RecordedEvent record_dispatched(db::Session& s, long long workspace_id, std::string_view name,
                                const nlohmann::json& data);

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
