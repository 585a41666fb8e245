#include "common/events/event_outbox.hpp"

#include "common/crypto/crypto.hpp"
#include "common/db/sql_text.hpp"
#include "common/time/clock.hpp"

namespace squawk::events {

std::string emit(db::Session& s, long long workspace_id, std::string_view name,
                 const nlohmann::json& data) {
    return emit_many(s, {NewEvent{workspace_id, std::string(name), data}}).front();
}

std::vector<std::string> emit_many(db::Session& s, const std::vector<NewEvent>& events) {
    std::vector<std::string> ids;
    if (events.empty()) return ids;
    const auto now = db::time_param(time::now());
    std::string values;
    db::Params params;
    for (const auto& e : events) {
        ids.push_back("evt_" + crypto::hex(crypto::random_bytes(12)));
        values += values.empty() ? "(?,?,?,?,?)" : ",(?,?,?,?,?)";
        params.insert(params.end(),
                      {ids.back(), e.workspace_id, e.name, db::json_text(e.data), now});
    }
    s.execute(
        "INSERT INTO events (public_id, workspace_id, name, data, created_at) VALUES " + values,
        params);
    return ids;
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
