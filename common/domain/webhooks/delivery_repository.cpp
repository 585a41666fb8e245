#include "common/domain/webhooks/delivery_repository.hpp"

#include "common/core/db/sql_text.hpp"
#include "common/domain/events/event_audience.hpp"
#include "common/domain/events/event_catalog.hpp"
#include "common/domain/events/event_outbox.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace squawk::webhooks {
namespace {

using db::Params;
using db::placeholders;
using db::time_param;

std::string clip(const std::string& s, size_t n) {
    return s.size() <= n ? s : s.substr(0, n);
}

// A replay onto a paused or failing endpoint waits as held until the endpoint is re-enabled.
DeliveryStatus replayed_status(EndpointStatus endpoint) {
    return endpoint == EndpointStatus::active ? DeliveryStatus::pending : DeliveryStatus::held;
}

}  // namespace

int DeliveryRepository::dispatch(db::Session& s, int limit,
                                 const config::WebhookSettings& settings) {
    const auto pending = events::lock_undispatched(s, limit);
    if (pending.empty()) return 0;

    std::set<long long> workspaces;
    for (const auto& e : pending) workspaces.insert(e.workspace_id);
    const auto audience = events::Audience::of(s, workspaces);

    const auto now = time_param(time::now());
    std::string values;
    Params params;
    size_t rows = 0;
    std::vector<long long> done;
    const auto flush = [&] {
        if (rows == 0) return;
        // IGNORE: an event dispatched twice (a crash between insert and mark) keeps one delivery.
        s.execute(
            "INSERT IGNORE INTO webhook_deliveries (workspace_id, endpoint_id, event_id,"
            " event_name, body, status, max_attempts, next_attempt_at, created_at,"
            " updated_at) VALUES " +
                values,
            params);
        values.clear();
        params.clear();
        rows = 0;
    };
    for (const auto& e : pending) {
        done.push_back(e.id);
        auto data = nlohmann::json::parse(e.data, nullptr, false);
        if (!data.is_object()) data = nlohmann::json::object();
        const int max_attempts = e.name == events::kWebhookTest ? 1 : settings.max_attempts;
        const auto add = [&](const events::Subscriber& sub, const nlohmann::json& payload) {
            if (!sub.events.count(e.name)) return;
            const nlohmann::json body = {{"id", e.public_id},
                                         {"event", e.name},
                                         {"created_at", e.created_at},
                                         {"data", payload}};
            values += values.empty() ? "(?,?,?,?,?,?,?,?,?,?)" : ",(?,?,?,?,?,?,?,?,?,?)";
            params.insert(params.end(),
                          {sub.workspace_id, sub.endpoint_id, e.id, e.name, db::json_text(body),
                           name_of(sub.failing ? DeliveryStatus::held : DeliveryStatus::pending),
                           static_cast<long long>(max_attempts), now, now, now});
            if (++rows >= 200) flush();
        };
        for (const auto& sub : audience.own(e.workspace_id)) add(sub, data);
        if (const auto owner = audience.owner(e.workspace_id)) {
            nlohmann::json with_profile = data;
            with_profile["profile_id"] = owner->profile_id;
            with_profile["profile_workspace_id"] = e.workspace_id;
            for (const auto& sub : audience.own(owner->workspace_id)) add(sub, with_profile);
        }
    }
    flush();
    events::mark_dispatched(s, done);
    return static_cast<int>(done.size());
}

std::vector<ClaimedDelivery> DeliveryRepository::claim(db::Session& s, int limit,
                                                       const std::string& token,
                                                       time::TimePoint lease_until) {
    const auto now = time_param(time::now());
    const auto lease = time_param(lease_until);
    const auto claimed = s.execute(
        "UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1,"
        " claim_token = ?, next_attempt_at = ?, updated_at = ?"
        // Walks ix_webhook_deliveries_due and stops at `limit`: due pending rows first, then due
        // retries, each oldest first. An ORDER BY across both statuses would sort every due row.
        " WHERE status IN (?, ?) AND next_attempt_at <= ? LIMIT ?",
        {name_of(DeliveryStatus::delivering), token, lease, now, name_of(DeliveryStatus::pending),
         name_of(DeliveryStatus::retrying), now, static_cast<long long>(limit)});
    std::vector<ClaimedDelivery> out;
    if (claimed == 0) return out;
    out.reserve(claimed);
    // Read back through the due index: the claim's rows sit together under its lease. Forced,
    // because the optimizer would rather start from the endpoint and walk all its deliveries.
    for (const auto& r : s.query(
             "SELECT d.id, d.workspace_id, d.endpoint_id, e.public_id, d.event_name, d.body,"
             " d.attempts, d.max_attempts, w.url, w.status, w.secret_enc, w.previous_secret_enc,"
             " w.previous_secret_expires_at FROM webhook_deliveries d"
             " FORCE INDEX (ix_webhook_deliveries_due) JOIN events e ON e.id = d.event_id"
             " JOIN webhook_endpoints w ON w.id = d.endpoint_id"
             " WHERE d.status = ? AND d.next_attempt_at = ? AND d.claim_token = ?",
             {name_of(DeliveryStatus::delivering), lease, token})) {
        ClaimedDelivery d;
        d.id = r.integer(0);
        d.workspace_id = r.integer(1);
        d.endpoint_id = r.integer(2);
        d.event_public_id = r.text(3);
        d.event_name = r.text(4);
        d.body = r.text(5);
        d.attempts = static_cast<int>(r.integer(6));
        d.max_attempts = static_cast<int>(r.integer(7));
        d.url = r.text(8);
        d.endpoint_status = stored_value<EndpointStatus>(r.text(9));
        d.secret_sealed = r.text(10);
        d.previous_secret_sealed = r.optional_text(11);
        d.previous_secret_expires_at = db::optional_time_column(r, 12);
        d.claim_token = token;
        out.push_back(std::move(d));
    }
    return out;
}

void DeliveryRepository::extend_leases(db::Session& s, const std::vector<std::string>& tokens,
                                       time::TimePoint lease_until) {
    if (tokens.empty()) return;
    Params params{time_param(lease_until), name_of(DeliveryStatus::delivering)};
    params.insert(params.end(), tokens.begin(), tokens.end());
    s.execute(
        "UPDATE webhook_deliveries SET next_attempt_at = ? WHERE status = ?"
        " AND claim_token IN (" +
            placeholders(tokens.size()) + ")",
        params);
}

void DeliveryRepository::record(db::Session& s, const std::vector<DeliveryResult>& results,
                                int failing_threshold) {
    if (results.empty()) return;
    const auto now = time_param(time::now());
    {
        std::string values;
        Params params;
        for (const auto& r : results) {
            if (!r.attempt) continue;
            const auto& a = *r.attempt;
            values += values.empty() ? "(?,?,?,?,?,?,?)" : ",(?,?,?,?,?,?,?)";
            params.insert(
                params.end(),
                {a.delivery_id, static_cast<long long>(a.attempt), time_param(a.started_at),
                 a.status_code ? db::Param(static_cast<long long>(*a.status_code))
                               : db::Param(nullptr),
                 static_cast<long long>(a.duration_ms),
                 a.error.empty() ? db::Param(nullptr) : db::Param(clip(a.error, 500)),
                 db::Param(a.response_excerpt)});
        }
        if (!values.empty())
            s.execute(
                "INSERT INTO webhook_attempts (delivery_id, attempt, started_at, status_code,"
                " duration_ms, error, response_excerpt) VALUES " +
                    values,
                params);
    }
    // Successes, the common case, by primary key: one statement per status code answered.
    std::map<long long, std::vector<const DeliveryResult*>> delivered_by_code;
    std::vector<const DeliveryResult*> others;
    for (const auto& r : results) {
        if (r.status == DeliveryStatus::delivered && r.attempt && r.attempt->status_code)
            delivered_by_code[*r.attempt->status_code].push_back(&r);
        else
            others.push_back(&r);
    }
    for (const auto& [code, group] : delivered_by_code) {
        std::set<std::string> tokens;
        Params params{name_of(DeliveryStatus::delivered), code, now};
        for (const auto* r : group) params.emplace_back(r->delivery_id);
        for (const auto* r : group) tokens.insert(r->claim_token);
        params.insert(params.end(), tokens.begin(), tokens.end());
        params.emplace_back(name_of(DeliveryStatus::delivering));
        // A reclaimed row carries another token (or '') and is left alone. Through the primary
        // key only: the due index would walk every delivery in flight.
        s.execute(
            "UPDATE webhook_deliveries FORCE INDEX (PRIMARY) SET status = ?,"
            " last_status_code = ?, last_error = NULL, claim_token = '', updated_at = ?"
            " WHERE id IN (" +
                placeholders(group.size()) + ") AND claim_token IN (" +
                placeholders(tokens.size()) + ") AND status = ?",
            params);
    }
    if (!others.empty()) {
        Params params;
        for (const auto* r : others) {
            const bool sent = r->attempt.has_value();
            params.insert(
                params.end(),
                {r->delivery_id, r->claim_token, name_of(r->status), time_param(r->next_attempt_at),
                 static_cast<long long>(sent ? r->attempt->status_code.value_or(0) : 0),
                 sent && !r->attempt->error.empty() ? db::Param(clip(r->attempt->error, 500))
                                                    : db::Param(nullptr),
                 static_cast<long long>(sent ? 1 : 0)});
        }
        params.insert(params.end(), {now, name_of(DeliveryStatus::delivering)});
        // Unsent (held) runs give their attempt back; a stale claim (reclaimed) changes nothing.
        const auto update = db::update_from_rows(
            "webhook_deliveries d",
            "CAST(? AS SIGNED) AS id, ? AS token, ? AS st, ? AS nxt, CAST(? AS SIGNED) AS code,"
            " ? AS err, CAST(? AS SIGNED) AS sent",
            others.size());
        s.execute(update +
                      "d.id = v.id AND d.claim_token = v.token"
                      " SET d.status = v.st, d.next_attempt_at = v.nxt,"
                      " d.attempts = IF(v.sent = 1, d.attempts, GREATEST(d.attempts - 1, 0)),"
                      " d.last_status_code = IF(v.sent = 1, v.code, d.last_status_code),"
                      " d.last_error = IF(v.sent = 1, v.err, d.last_error),"
                      " d.claim_token = '', d.updated_at = ?"
                      " WHERE d.status = ?",
                  params);
    }
    // Per endpoint, in order: a success resets the run of failures.
    std::map<long long, std::pair<bool, int>> runs;  // endpoint -> (had success, trailing failures)
    for (const auto& r : results) {
        if (r.effect == DeliveryResult::EndpointEffect::none) continue;
        auto& run = runs[r.endpoint_id];
        if (r.effect == DeliveryResult::EndpointEffect::success) {
            run = {true, 0};
        } else {
            ++run.second;
        }
    }
    for (const auto& [endpoint, run] : runs) {
        if (run.first)
            s.execute("UPDATE webhook_endpoints SET consecutive_failures = ? WHERE id = ?",
                      {static_cast<long long>(run.second), endpoint});
        else
            s.execute(
                "UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + ?"
                " WHERE id = ?",
                {static_cast<long long>(run.second), endpoint});
        if (run.second == 0) continue;
        if (s.execute(
                "UPDATE webhook_endpoints SET status = ?, updated_at = ?"
                " WHERE id = ? AND status = ? AND consecutive_failures >= ?",
                {name_of(EndpointStatus::failing), now, endpoint, name_of(EndpointStatus::active),
                 static_cast<long long>(failing_threshold)}) > 0)
            s.execute(
                "UPDATE webhook_deliveries SET status = ?, updated_at = ?"
                " WHERE endpoint_id = ? AND status IN (?, ?)",
                {name_of(DeliveryStatus::held), now, endpoint, name_of(DeliveryStatus::pending),
                 name_of(DeliveryStatus::retrying)});
    }
}

void DeliveryRepository::release(db::Session& s,
                                 const std::vector<std::pair<long long, std::string>>& claims) {
    const auto now = time_param(time::now());
    for (const auto& [id, token] : claims)
        s.execute(
            "UPDATE webhook_deliveries SET status = IF(attempts > 1, ?, ?),"
            " attempts = GREATEST(attempts - 1, 0), claim_token = '',"
            " next_attempt_at = ?, updated_at = ? WHERE id = ? AND claim_token = ?"
            " AND status = ?",
            {name_of(DeliveryStatus::retrying), name_of(DeliveryStatus::pending), now, now, id,
             token, name_of(DeliveryStatus::delivering)});
}

int DeliveryRepository::reclaim_expired(db::Session& s, int limit) {
    const auto now = time_param(time::now());
    Params ids;
    // A delivery in flight holds its lease in next_attempt_at.
    for (const auto& r :
         s.query("SELECT id FROM webhook_deliveries WHERE status = ?"
                 " AND next_attempt_at < ? LIMIT ?",
                 {name_of(DeliveryStatus::delivering), now, static_cast<long long>(limit)}))
        ids.emplace_back(r.integer(0));
    if (ids.empty()) return 0;
    Params params{name_of(DeliveryStatus::dead_letter), name_of(DeliveryStatus::retrying), now,
                  now};
    params.insert(params.end(), ids.begin(), ids.end());
    params.insert(params.end(), {name_of(DeliveryStatus::delivering), now});
    // The lost attempt may or may not have reached the receiver; sending again is at-least-once.
    return static_cast<int>(
        s.execute("UPDATE webhook_deliveries SET status = IF(attempts >= max_attempts, ?, ?),"
                  " last_error = 'the worker delivering it stopped', next_attempt_at = ?,"
                  " claim_token = '', updated_at = ? WHERE id IN (" +
                      placeholders(ids.size()) + ") AND status = ? AND next_attempt_at < ?",
                  params));
}

int DeliveryRepository::sweep(db::Session& s, time::TimePoint before, int limit) {
    const auto cutoff = time_param(before);
    Params ids;
    for (const auto& r :
         s.query("SELECT id FROM webhook_deliveries WHERE created_at < ?"
                 " AND status <> ? ORDER BY id LIMIT ?",
                 {cutoff, name_of(DeliveryStatus::delivering), static_cast<long long>(limit)}))
        ids.emplace_back(r.integer(0));
    if (!ids.empty()) {
        s.execute(
            "DELETE FROM webhook_attempts WHERE delivery_id IN (" + placeholders(ids.size()) + ")",
            ids);
        s.execute("DELETE FROM webhook_deliveries WHERE id IN (" + placeholders(ids.size()) + ")",
                  ids);
    }
    s.execute("DELETE FROM events WHERE created_at < ? AND dispatched = 1 LIMIT ?",
              {cutoff, static_cast<long long>(limit)});
    return static_cast<int>(ids.size());
}

DeliveryRepository::ReplayResult DeliveryRepository::replay(db::Session& s, long long workspace_id,
                                                            long long delivery_id) {
    auto row = s.query_one(
        "SELECT d.status, w.status FROM webhook_deliveries d JOIN"
        " webhook_endpoints w ON w.id = d.endpoint_id WHERE d.id = ?"
        " AND d.workspace_id = ? FOR UPDATE",
        {delivery_id, workspace_id});
    if (!row) return ReplayResult::not_found;
    if (stored_value<DeliveryStatus>(row->text(0)) == DeliveryStatus::delivering)
        return ReplayResult::in_flight;
    const auto endpoint = stored_value<EndpointStatus>(row->text(1));
    if (endpoint == EndpointStatus::deleted) return ReplayResult::endpoint_deleted;
    const auto now = time_param(time::now());
    s.execute(
        "UPDATE webhook_deliveries SET status = ?,"
        " attempts = 0, max_attempts = IF(event_name = 'webhook.test', 1, GREATEST(max_attempts, "
        "1)),"
        " next_attempt_at = ?, last_error = NULL, updated_at = ?"
        " WHERE id = ?",
        {name_of(replayed_status(endpoint)), now, now, delivery_id});
    return endpoint == EndpointStatus::active ? ReplayResult::replayed
                                              : ReplayResult::replayed_held;
}

std::vector<long long> DeliveryRepository::replay_dead_letters(db::Session& s,
                                                               long long endpoint_id,
                                                               time::TimePoint since) {
    std::vector<long long> ids;
    Params params;
    for (const auto& r :
         s.query("SELECT id FROM webhook_deliveries WHERE endpoint_id = ?"
                 " AND status = ? AND created_at >= ? ORDER BY id FOR UPDATE",
                 {endpoint_id, name_of(DeliveryStatus::dead_letter), time_param(since)})) {
        ids.push_back(r.integer(0));
        params.emplace_back(r.integer(0));
    }
    if (ids.empty()) return ids;
    const auto now = time_param(time::now());
    const auto endpoint = stored_value<EndpointStatus>(
        s.query_one("SELECT status FROM webhook_endpoints WHERE id = ?", {endpoint_id})->text(0));
    Params all{name_of(replayed_status(endpoint)), now, now};
    all.insert(all.end(), params.begin(), params.end());
    s.execute(
        "UPDATE webhook_deliveries SET status = ?,"
        " attempts = 0, next_attempt_at = ?, last_error = NULL, updated_at = ?"
        " WHERE id IN (" +
            placeholders(params.size()) + ")",
        all);
    return ids;
}

long long DeliveryRepository::insert_test_delivery(db::Session& s, long long workspace_id,
                                                   long long endpoint_id, long long event_id,
                                                   const std::string& body,
                                                   const std::string& claim_token,
                                                   time::TimePoint lease_until) {
    const auto now = time_param(time::now());
    return s.insert(
        "INSERT INTO webhook_deliveries (workspace_id, endpoint_id, event_id, event_name,"
        " body, status, attempts, max_attempts, next_attempt_at, claim_token, created_at,"
        " updated_at) VALUES (?, ?, ?, 'webhook.test', ?, ?, 1, 1, ?, ?, ?, ?)",
        {workspace_id, endpoint_id, event_id, body, name_of(DeliveryStatus::delivering),
         time_param(lease_until), claim_token, now, now});
}

}  // namespace squawk::webhooks
