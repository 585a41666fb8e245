#include "api/server/idempotency_gate.hpp"

#include "api/server/request_headers.hpp"
#include "common/core/config/config.hpp"
#include "common/core/crypto/crypto.hpp"
#include "common/core/error/api_error.hpp"
#include "common/core/log/logger.hpp"
#include "common/domain/idempotency/idempotency_store.hpp"

namespace squawk::api {
namespace {

bool takes_key(std::string_view method) {
    return method == "POST" || method == "PUT" || method == "PATCH";
}

// The identity a request acts as and everything it asks for; a repeat must match all of it.
std::string request_hash(const RequestContext& context, const std::string& endpoint) {
    nlohmann::json query = nlohmann::json::object();
    for (const auto& [k, v] : context.query) query[k] = v;
    nlohmann::json identity = {{"endpoint", endpoint},
                               {"test", context.is_test},
                               {"profile", context.profile_id.value_or(0)},
                               {"query", query},
                               {"body", context.body}};
    // An upload's bytes are not JSON: their digest stands for them.
    if (context.upload && context.upload->sha256) identity["upload"] = *context.upload->sha256;
    return crypto::sha256_hex(identity.dump());
}

Reply stored_reply(int status, const std::string& text) {
    const auto stored = nlohmann::json::parse(text, nullptr, false);
    Reply r = Reply::ok(stored.is_object() ? stored.value("data", nlohmann::json::object())
                                           : nlohmann::json::object(),
                        status);
    if (stored.is_object()) {
        if (stored.contains("pagination")) r.pagination = stored["pagination"];
        if (stored.contains("usage")) r.usage = stored["usage"];
        r.bare = stored.value("bare", false);
    }
    return r;
}

}  // namespace

std::optional<IdempotencyClaim> claim_idempotency(Services& services, const RequestContext& context,
                                                  std::string_view method, std::string_view path,
                                                  std::optional<KeyHeader> header) {
    if (!header || !takes_key(method) || !context.key) return std::nullopt;
    const std::string name(header->name);
    if (!is_valid_idempotency_key(header->value))
        throw ApiError(ErrorCode::InvalidRequest,
                       name +
                           " must be 1 to 255 visible ASCII characters to serve as the "
                           "idempotency key.",
                       {{"header", name}});
    idempotency::Request request;
    request.workspace_id = context.caller_workspace_id;
    request.key = std::string(header->value);
    request.endpoint = std::string(method) + " " + std::string(path);
    request.request_hash = request_hash(context, request.endpoint);
    const auto& settings = services.config.idempotency;
    const auto claim = services.mysql.run([&](db::Session& s) {
        return idempotency::IdempotencyStore::claim(s, request,
                                                    std::chrono::hours(settings.ttl_hours),
                                                    std::chrono::seconds(settings.lock_seconds));
    });
    switch (claim.kind) {
        case idempotency::Claim::Kind::mismatch:
            throw ApiError(ErrorCode::IdempotencyConflict, {}, {{"header", name}});
        case idempotency::Claim::Kind::in_flight:
            throw ApiError(ErrorCode::Conflict,
                           "A request with this idempotency key is still being processed.",
                           {{"header", name}, {"reason", "in_progress"}});
        case idempotency::Claim::Kind::answer_lost:
            throw ApiError(ErrorCode::Conflict,
                           "A request with this idempotency key was carried out, but its answer "
                           "was lost; look the result up instead of sending it again.",
                           {{"header", name}, {"reason", "answer_lost"}});
        case idempotency::Claim::Kind::replay:
            return IdempotencyClaim{claim.record_id, stored_reply(claim.status, claim.response)};
        case idempotency::Claim::Kind::acquired:
            break;
    }
    return IdempotencyClaim{claim.record_id, std::nullopt};
}

db::CommitCompanion mark_effects_of(const std::optional<IdempotencyClaim>& claim) {
    if (!claim) return db::CommitCompanion({});
    return db::CommitCompanion([id = claim->record_id](db::Session& s) {
        idempotency::IdempotencyStore::mark_effect_committed(s, id);
    });
}

void finish_idempotency(Services& services, const IdempotencyClaim& claim, const Reply* reply) {
    try {
        services.mysql.run([&](db::Session& s) {
            if (reply && !reply->file && !reply->raw) {
                nlohmann::json stored = {{"data", reply->data}, {"bare", reply->bare}};
                if (reply->pagination) stored["pagination"] = *reply->pagination;
                if (reply->usage) stored["usage"] = *reply->usage;
                idempotency::IdempotencyStore::complete(s, claim.record_id, reply->status,
                                                        stored.dump());
            } else {
                idempotency::IdempotencyStore::release(s, claim.record_id);
            }
        });
    } catch (const std::exception& e) {
        // The claim's lock lapses on its own; a repeat then runs again instead of replaying.
        log::warn("could not settle an idempotency record",
                  {{"record_id", claim.record_id}, {"error", e.what()}});
    }
}

}  // namespace squawk::api
