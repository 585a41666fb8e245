// X-Idempotency-Key on POST, PUT and PATCH (spec 4.4). The first request claims the key and its
// successful answer is stored; a repeat with the same request replays that answer (fresh
// meta.request_id, header X-Idempotent-Replay: true) without running or billing anything, a
// repeat with another request is 409 IDEMPOTENCY_CONFLICT, and a repeat while the first is
// still running is 409 CONFLICT (retryable). Failed requests store nothing: the key may be reused.
#pragma once

#include "api/server/request_context.hpp"
#include "api/server/services.hpp"
#include "common/core/db/commit_companion.hpp"

#include <optional>
#include <string_view>

namespace squawk::api {

struct IdempotencyClaim {
    long long record_id = 0;
    std::optional<Reply> replay;  // set when the stored answer is to be sent
};

// The header that carried the key: X-Idempotency-Key, or X-Request-Id on routes whose request
// id is the key. Errors name it.
struct KeyHeader {
    std::string_view name;
    std::string_view value;
};

// Nothing when the method takes no key or none was sent; throws 400 for a malformed key.
std::optional<IdempotencyClaim> claim_idempotency(Services& services, const RequestContext& context,
                                                  std::string_view method, std::string_view path,
                                                  std::optional<KeyHeader> header);

// Marks the claim, if any, in every transaction the current thread commits while the companion
// lives, so that a handler's committed write is known even if its answer is lost after COMMIT.
db::CommitCompanion mark_effects_of(const std::optional<IdempotencyClaim>& claim);

// Stores `reply` for later repeats, or (reply null) gives the key back after a failure unless the
// handler's write committed.
void finish_idempotency(Services& services, const IdempotencyClaim& claim, const Reply* reply);

}  // namespace squawk::api
