// The Bluesky sessions this process holds, one per account's credentials: Bluesky allows an
// account 30 createSession calls in 5 minutes, so operations reuse a session's access token and
// renew it with its refresh token rather than sign in each time.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace squawk::social::bluesky {

// What createSession and refreshSession give.
struct SessionTokens {
    std::string did;
    std::string handle;
    std::string access_jwt;
    std::string refresh_jwt;
};

// A bounded map from credentials to their session, shared by every connector of the process
// (publish fibers on several threads). Calls only copy under the lock: the I/O that renews a
// session happens outside it, so two callers may refresh one session at once, and the last one
// stored wins (opening one is a single flight, session.cpp).
class SessionCache {
  public:
    explicit SessionCache(size_t capacity) : capacity_(capacity) {}

    std::optional<SessionTokens> find(const std::string& key);
    // Keeps `tokens` for `key`; when full, the session used least recently makes room.
    void store(const std::string& key, SessionTokens tokens);
    // Drops the session of `key` if its access token is still `access_jwt`, leaving one another
    // caller stored since.
    void forget(const std::string& key, const std::string& access_jwt);

  private:
    struct Entry {
        SessionTokens tokens;
        uint64_t last_used = 0;
    };

    const size_t capacity_;
    std::mutex mutex_;
    std::map<std::string, Entry> entries_;
    uint64_t uses_ = 0;
};

// The process's cache, for every Bluesky connector.
SessionCache& process_sessions();

}  // namespace squawk::social::bluesky
