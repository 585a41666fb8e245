#include "common/domain/webhooks/endpoint_repository.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/db/row_mapper.hpp"
#include "common/core/db/sql_text.hpp"
#include "common/domain/webhooks/statuses.hpp"

namespace squawk::webhooks {
namespace {

using db::time_param;

// A JSON array of event names; anything else in it is skipped.
void read_events(Endpoint& e, const db::Row& r, size_t i) {
    const auto events = nlohmann::json::parse(r.text(i), nullptr, false);
    if (events.is_array())
        for (const auto& name : events)
            if (name.is_string()) e.events.push_back(name.get<std::string>());
}

const db::RowMapper<Endpoint> kEndpointRows{
    db::field<&Endpoint::id>("id"),
    db::field<&Endpoint::public_id>("public_id"),
    db::field<&Endpoint::workspace_id>("workspace_id"),
    db::field<&Endpoint::url>("url"),
    {"events", &read_events},
    db::field<&Endpoint::secret_sealed>("secret_enc"),
    db::field<&Endpoint::previous_secret_sealed>("previous_secret_enc"),
    db::field<&Endpoint::previous_secret_expires_at>("previous_secret_expires_at"),
    db::field<&Endpoint::status>("status"),
    db::field<&Endpoint::consecutive_failures>("consecutive_failures"),
    db::field<&Endpoint::created_at>("created_at"),
    db::field<&Endpoint::updated_at>("updated_at")};

std::string events_text(const std::vector<std::string>& events) {
    return nlohmann::json(events).dump();
}

}  // namespace

Endpoint EndpointRepository::insert(db::Session& s, long long workspace_id, const std::string& url,
                                    const std::vector<std::string>& events,
                                    const std::string& secret_sealed) {
    Endpoint e;
    e.public_id = "wh_" + crypto::hex(crypto::random_bytes(12));
    e.workspace_id = workspace_id;
    e.url = url;
    e.events = events;
    e.secret_sealed = secret_sealed;
    e.status = EndpointStatus::active;
    e.created_at = e.updated_at = time::now();
    e.id = s.insert(
        "INSERT INTO webhook_endpoints (public_id, workspace_id, url, events, secret_enc,"
        " status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        {e.public_id, workspace_id, url, events_text(events), secret_sealed, name_of(e.status),
         time_param(e.created_at), time_param(e.updated_at)});
    return e;
}

std::optional<Endpoint> EndpointRepository::find(db::Session& s, long long workspace_id,
                                                 const std::string& public_id, bool for_update) {
    return kEndpointRows.first(
        s.select("SELECT " + kEndpointRows.select_list() +
                     " FROM webhook_endpoints WHERE public_id = ? AND workspace_id = ?"
                     " AND status <> ?" +
                     (for_update ? " FOR UPDATE" : ""),
                 {public_id, workspace_id, name_of(EndpointStatus::deleted)}));
}

std::vector<Endpoint> EndpointRepository::list(db::Session& s, long long workspace_id) {
    return kEndpointRows.all(s.select("SELECT " + kEndpointRows.select_list() +
                                          " FROM webhook_endpoints WHERE workspace_id = ?"
                                          " AND status <> ? ORDER BY id",
                                      {workspace_id, name_of(EndpointStatus::deleted)}));
}

long long EndpointRepository::count_active_locked(db::Session& s, long long workspace_id) {
    // Locking the workspace row serializes creates and resumes of one workspace.
    s.query("SELECT id FROM workspaces WHERE id = ? FOR UPDATE", {workspace_id});
    return s
        .query_one("SELECT COUNT(*) FROM webhook_endpoints WHERE workspace_id = ? AND status = ?",
                   {workspace_id, name_of(EndpointStatus::active)})
        ->integer(0);
}

void EndpointRepository::update(db::Session& s, const Endpoint& e) {
    const auto now = time_param(time::now());
    s.execute(
        "UPDATE webhook_endpoints SET url = ?, events = ?, status = ?,"
        " consecutive_failures = ?, updated_at = ? WHERE id = ?",
        {e.url, events_text(e.events), name_of(e.status),
         static_cast<long long>(e.consecutive_failures), now, e.id});
    // Held deliveries go out again once the endpoint is active; pausing holds what is waiting.
    if (e.status == EndpointStatus::active)
        s.execute(
            "UPDATE webhook_deliveries SET status = ?, next_attempt_at = ?,"
            " updated_at = ? WHERE endpoint_id = ? AND status = ?",
            {name_of(DeliveryStatus::pending), now, now, e.id, name_of(DeliveryStatus::held)});
    else
        s.execute(
            "UPDATE webhook_deliveries SET status = ?, updated_at = ?"
            " WHERE endpoint_id = ? AND status IN (?, ?)",
            {name_of(DeliveryStatus::held), now, e.id, name_of(DeliveryStatus::pending),
             name_of(DeliveryStatus::retrying)});
}

void EndpointRepository::remove(db::Session& s, const Endpoint& e) {
    const auto now = time_param(time::now());
    s.execute("UPDATE webhook_endpoints SET status = ?, updated_at = ? WHERE id = ?",
              {name_of(EndpointStatus::deleted), now, e.id});
    s.execute(
        "UPDATE webhook_deliveries SET status = ?, last_error = 'endpoint deleted',"
        " updated_at = ? WHERE endpoint_id = ? AND status IN (?, ?, ?)",
        {name_of(DeliveryStatus::failed), now, e.id, name_of(DeliveryStatus::pending),
         name_of(DeliveryStatus::retrying), name_of(DeliveryStatus::held)});
}

void EndpointRepository::rotate_secret(db::Session& s, const Endpoint& e,
                                       const std::string& new_sealed,
                                       time::TimePoint previous_expires_at) {
    s.execute(
        "UPDATE webhook_endpoints SET previous_secret_enc = secret_enc,"
        " previous_secret_expires_at = ?, secret_enc = ?, updated_at = ? WHERE id = ?",
        {time_param(previous_expires_at), new_sealed, time_param(time::now()), e.id});
}

}  // namespace squawk::webhooks
