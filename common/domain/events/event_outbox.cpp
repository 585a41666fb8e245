#include "common/domain/events/event_outbox.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/db/sql_text.hpp"
#include "common/core/time/clock.hpp"

#include <map>
#include <set>

namespace squawk::events {

namespace {

// Inserts `events` in one statement and returns them as recorded, in the same order.
std::vector<RecordedEvent> insert(db::Session& s, const std::vector<const NewEvent*>& events,
                                  bool dispatched) {
    std::vector<RecordedEvent> recorded;
    if (events.empty()) return recorded;
    const auto now = db::time_param(time::now());
    std::string values;
    db::Params params;
    std::map<std::string, size_t> index;
    for (const auto* e : events) {
        recorded.push_back({0, "evt_" + crypto::hex(crypto::random_bytes(12))});
        index[recorded.back().public_id] = recorded.size() - 1;
        values += values.empty() ? "(?,?,?,?,?,?,?)" : ",(?,?,?,?,?,?,?)";
        params.insert(params.end(),
                      {recorded.back().public_id, e->workspace_id, e->name, db::json_text(e->data),
                       now, dispatched, dispatched ? now : db::Param()});
    }
    for (const auto& r :
         s.query("INSERT INTO events (public_id, workspace_id, name, data, created_at, dispatched,"
                 " dispatched_at) VALUES " +
                     values + " RETURNING id, public_id",
                 params))
        recorded[index.at(r.text(1))].id = r.integer(0);
    return recorded;
}

}  // namespace

std::optional<std::string> emit(db::Session& s, long long workspace_id, std::string_view name,
                                const nlohmann::json& data) {
    if (!Audience::of(s, {workspace_id}).wants(workspace_id, name)) return std::nullopt;
    const NewEvent event{workspace_id, std::string(name), data};
    return insert(s, {&event}, false).front().public_id;
}

void emit_many(db::Session& s, const std::vector<NewEvent>& events) {
    std::set<long long> workspaces;
    for (const auto& e : events) workspaces.insert(e.workspace_id);
    emit_many(s, Audience::of(s, workspaces), events);
}

void emit_many(db::Session& s, const Audience& audience, const std::vector<NewEvent>& events) {
    std::vector<const NewEvent*> wanted;
    for (const auto& e : events)
        if (audience.wants(e.workspace_id, e.name)) wanted.push_back(&e);
    insert(s, wanted, false);
}

RecordedEvent record_dispatched(db::Session& s, long long workspace_id, std::string_view name,
                                const nlohmann::json& data) {
    const NewEvent event{workspace_id, std::string(name), data};
    return insert(s, {&event}, true).front();
}

std::vector<PendingEvent> lock_undispatched(db::Session& s, int limit) {
    std::vector<PendingEvent> out;
    for (const auto& r : s.query("SELECT id, public_id, workspace_id, name, data, created_at"
                                 " FROM events WHERE dispatched = 0 ORDER BY id LIMIT ?"
                                 " FOR UPDATE SKIP LOCKED",
                                 {static_cast<long long>(limit)})) {
        PendingEvent e;
        e.id = r.integer(0);
        e.public_id = r.text(1);
        e.workspace_id = r.integer(2);
        e.name = r.text(3);
        e.data = r.text(4);
        e.created_at = time::format_iso8601(db::time_column(r, 5));
        out.push_back(std::move(e));
    }
    return out;
}

void mark_dispatched(db::Session& s, const std::vector<long long>& ids) {
    if (ids.empty()) return;
    db::Params params{db::time_param(time::now())};
    for (long long id : ids) params.emplace_back(id);
    s.execute("UPDATE events SET dispatched = 1, dispatched_at = ? WHERE id IN (" +
                  db::placeholders(ids.size()) + ")",
              params);
}

}  // namespace squawk::events
