#include "common/domain/idempotency/idempotency_store.hpp"

#include "common/core/db/sql_text.hpp"
#include "common/core/time/clock.hpp"

#include <stdexcept>

namespace squawk::idempotency {

Claim IdempotencyStore::claim(db::Session& s, const Request& request, std::chrono::seconds lifetime,
                              std::chrono::seconds lock) {
    // A few rounds cover a row that expires or is released between our insert and our read.
    for (int round = 0; round < 4; ++round) {
        const auto now = time::now();
        try {
            Claim c;
            c.record_id = s.insert(
                "INSERT INTO idempotency_records (workspace_id, idempotency_key, endpoint,"
                " request_hash, locked_until, created_at, expires_at) VALUES (?,?,?,?,?,?,?)",
                {request.workspace_id, request.key, request.endpoint, request.request_hash,
                 db::time_param(now + lock), db::time_param(now), db::time_param(now + lifetime)});
            return c;
        } catch (const db::DatabaseError& e) {
            if (e.is_deadlock()) continue;
            if (!e.is_duplicate_key()) throw;
        }
        auto row = s.query_one(
            "SELECT id, request_hash, status, response, locked_until < ?, expires_at <= ?,"
            " effect_committed FROM idempotency_records"
            " WHERE workspace_id = ? AND idempotency_key = ?",
            {db::time_param(now), db::time_param(now), request.workspace_id, request.key});
        if (!row) continue;
        const long long id = row->integer(0);
        if (row->integer(5) != 0) {
            s.execute("DELETE FROM idempotency_records WHERE id = ? AND expires_at <= ?",
                      {id, db::time_param(now)});
            continue;
        }
        Claim c;
        c.record_id = id;
        if (row->text(1) != request.request_hash) {
            c.kind = Claim::Kind::mismatch;
        } else if (auto status = row->optional_integer(2)) {
            c.kind = Claim::Kind::replay;
            c.status = static_cast<int>(*status);
            c.response = row->optional_text(3).value_or("{}");
        } else if (row->integer(6) != 0) {
            c.kind = Claim::Kind::answer_lost;
        } else if (row->integer(4) != 0 &&
                   s.execute("UPDATE idempotency_records SET locked_until = ? WHERE id = ?"
                             " AND status IS NULL AND effect_committed = 0 AND locked_until < ?",
                             {db::time_param(now + lock), id, db::time_param(now)}) > 0) {
            c.kind = Claim::Kind::acquired;  // the first request's process died mid-way
        } else {
            c.kind = Claim::Kind::in_flight;
        }
        return c;
    }
    throw std::runtime_error("idempotency record kept changing under concurrent requests");
}

void IdempotencyStore::mark_effect_committed(db::Session& s, long long record_id) {
    s.execute("UPDATE idempotency_records SET effect_committed = 1 WHERE id = ?", {record_id});
}

void IdempotencyStore::complete(db::Session& s, long long record_id, int status,
                                const std::string& response) {
    s.execute("UPDATE idempotency_records SET status = ?, response = ? WHERE id = ?",
              {static_cast<long long>(status), response, record_id});
}

void IdempotencyStore::release(db::Session& s, long long record_id) {
    s.execute(
        "DELETE FROM idempotency_records WHERE id = ? AND status IS NULL AND effect_committed = 0",
        {record_id});
}

long long IdempotencyStore::delete_expired(db::Session& s, int limit) {
    return static_cast<long long>(
        s.execute("DELETE FROM idempotency_records WHERE expires_at <= ? LIMIT ?",
                  {db::time_param(time::now()), static_cast<long long>(limit)}));
}

}  // namespace squawk::idempotency
