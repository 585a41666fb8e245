// OAuth connects in progress, by the SHA-256 of their state: written when the user is sent to the
// platform, taken (read and deleted in one transaction) when the platform sends them back.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"

#include <optional>
#include <string>

namespace squawk::social {

struct PendingConnect {
    long long workspace_id = 0;
    std::string platform;
    std::string code_verifier_sealed;
    time::TimePoint expires_at;
};

class OAuthStateRepository {
  public:
    static void insert(db::Session& s, const std::string& state_hash, const PendingConnect& p);
    // The pending connect of `state_hash`, deleted so that no state serves twice (call inside a
    // transaction); nothing when there is none.
    static std::optional<PendingConnect> take(db::Session& s, const std::string& state_hash);
    // Removes states past their expiry; returns how many.
    static long long delete_expired(db::Session& s, int limit);
};

}  // namespace squawk::social
