// Idempotency records (spec 4.4): the first request with a key claims it, runs, and stores its
// answer; a repeat within the lifetime gets that answer back. The claim is the unique row itself,
// so concurrent repeats across API processes see it at once; a claim whose process died is taken
// over after its lock lapses.
#pragma once

#include "common/core/db/mysql_pool.hpp"

#include <chrono>
#include <string>

namespace squawk::idempotency {

struct Claim {
    enum class Kind {
        acquired,    // run the request, then complete() or release()
        replay,      // answer with status and response
        in_flight,   // the first request is still running
        mismatch,    // the key was used for another request
        answer_lost  // the first request's write committed, but its answer was never stored
    };
    Kind kind = Kind::acquired;
    long long record_id = 0;
    int status = 0;
    std::string response;
};

struct Request {
    long long workspace_id = 0;
    std::string key;
    std::string endpoint;      // "POST /v1/audio/text-to-speech"
    std::string request_hash;  // over endpoint, body and the identity the request acts as
};

class IdempotencyStore {
  public:
    static Claim claim(db::Session& s, const Request& request, std::chrono::seconds lifetime,
                       std::chrono::seconds lock);
    // In the request's own transactions (db::CommitCompanion): its write committed.
    static void mark_effect_committed(db::Session& s, long long record_id);
    static void complete(db::Session& s, long long record_id, int status,
                         const std::string& response);
    // Forgets a claim whose request failed, so the key may be used again; a claim whose write
    // committed is kept.
    static void release(db::Session& s, long long record_id);
    static long long delete_expired(db::Session& s, int limit);
};

}  // namespace squawk::idempotency
