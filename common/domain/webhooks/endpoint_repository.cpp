#include "common/domain/webhooks/endpoint_repository.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/db/sql_text.hpp"

namespace squawk::webhooks {
namespace {

using db::time_param;

constexpr const char* kColumns =
    "id, public_id, workspace_id, url, events, secret_enc, previous_secret_enc,"
    " previous_secret_expires_at, status, consecutive_failures, created_at, updated_at";

Endpoint read_endpoint(const db::Row& r) {
    Endpoint e;
    e.id = r.integer(0);
    e.public_id = r.text(1);
    e.workspace_id = r.integer(2);
    e.url = r.text(3);
    const auto events = nlohmann::json::parse(r.text(4), nullptr, false);
    if (events.is_array())
        for (const auto& name : events)
            if (name.is_string()) e.events.push_back(name.get<std::string>());
    e.secret_sealed = r.text(5);
    e.previous_secret_sealed = r.optional_text(6);
    e.previous_secret_expires_at = db::optional_time_column(r, 7);
    e.status = r.text(8);
    e.consecutive_failures = static_cast<int>(r.integer(9));
    e.created_at = db::time_column(r, 10);
    e.updated_at = db::time_column(r, 11);
    return e;
}

std::string events_text(const std::vector<std::string>& events) {
    return nlohmann::json(events).dump();
}

}  // namespace

nlohmann::json to_api_json(const Endpoint& e) {
    return {{"id", e.public_id},
            {"url", e.url},
            {"events", e.events},
            {"status", e.status},
            {"consecutive_failures", e.consecutive_failures},
            {"created_at", time::format_iso8601(e.created_at)},
            {"updated_at", time::format_iso8601(e.updated_at)}};
}

Endpoint EndpointRepository::insert(db::Session& s, long long workspace_id, const std::string& url,
                                    const std::vector<std::string>& events,
                                    const std::string& secret_sealed) {
    Endpoint e;
    e.public_id = "wh_" + crypto::hex(crypto::random_bytes(12));
    e.workspace_id = workspace_id;
    e.url = url;
    e.events = events;
    e.secret_sealed = secret_sealed;
    e.status = endpoint_status::active;
    e.created_at = e.updated_at = time::now();
    s.execute(
        "INSERT INTO webhook_endpoints (public_id, workspace_id, url, events, secret_enc,"
        " status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'active', ?, ?)",
        {e.public_id, workspace_id, url, events_text(events), secret_sealed,
         time_param(e.created_at), time_param(e.updated_at)});
    e.id = s.last_insert_id();
    return e;
}

std::optional<Endpoint> EndpointRepository::find(db::Session& s, long long workspace_id,
                                                 const std::string& public_id, bool for_update) {
    auto row = s.query_one(std::string("SELECT ") + kColumns +
                               " FROM webhook_endpoints WHERE public_id = ? AND workspace_id = ?"
                               " AND status <> 'deleted'" +
                               (for_update ? " FOR UPDATE" : ""),
                           {public_id, workspace_id});
    if (!row) return std::nullopt;
    return read_endpoint(*row);
}

std::vector<Endpoint> EndpointRepository::list(db::Session& s, long long workspace_id) {
    std::vector<Endpoint> out;
    for (const auto& r : s.query(std::string("SELECT ") + kColumns +
                                     " FROM webhook_endpoints WHERE workspace_id = ?"
                                     " AND status <> 'deleted' ORDER BY id",
                                 {workspace_id}))
        out.push_back(read_endpoint(r));
    return out;
}

long long EndpointRepository::count_active_locked(db::Session& s, long long workspace_id) {
    // Locking the workspace row serializes creates and resumes of one workspace.
    s.query("SELECT id FROM workspaces WHERE id = ? FOR UPDATE", {workspace_id});
    return s
        .query_one(
            "SELECT COUNT(*) FROM webhook_endpoints WHERE workspace_id = ?"
            " AND status = 'active'",
            {workspace_id})
        ->integer(0);
}

void EndpointRepository::update(db::Session& s, const Endpoint& e) {
    const auto now = time_param(time::now());
    s.execute(
        "UPDATE webhook_endpoints SET url = ?, events = ?, status = ?,"
        " consecutive_failures = ?, updated_at = ? WHERE id = ?",
        {e.url, events_text(e.events), e.status, static_cast<long long>(e.consecutive_failures),
         now, e.id});
    // Held deliveries go out again once the endpoint is active; pausing holds what is waiting.
    if (e.status == endpoint_status::active)
        s.execute(
            "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?,"
            " updated_at = ? WHERE endpoint_id = ? AND status = 'held'",
            {now, now, e.id});
    else
        s.execute(
            "UPDATE webhook_deliveries SET status = 'held', updated_at = ?"
            " WHERE endpoint_id = ? AND status IN ('pending', 'retrying')",
            {now, e.id});
}

void EndpointRepository::remove(db::Session& s, const Endpoint& e) {
    const auto now = time_param(time::now());
    s.execute("UPDATE webhook_endpoints SET status = 'deleted', updated_at = ? WHERE id = ?",
              {now, e.id});
    s.execute(
        "UPDATE webhook_deliveries SET status = 'failed', last_error = 'endpoint deleted',"
        " updated_at = ? WHERE endpoint_id = ? AND status IN ('pending', 'retrying', 'held')",
        {now, e.id});
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
