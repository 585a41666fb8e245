#include "common/extensions/platforms/bluesky/session_cache.hpp"

#include <algorithm>

namespace squawk::social::bluesky {
namespace {

// Far more accounts than one worker publishes to within a token's lifetime; an evicted account
// only signs in again.
constexpr size_t kProcessSessions = 4096;

}  // namespace

std::optional<SessionTokens> SessionCache::find(const std::string& key) {
    std::lock_guard lock(mutex_);
    const auto found = entries_.find(key);
    if (found == entries_.end()) return std::nullopt;
    found->second.last_used = ++uses_;
    return found->second.tokens;
}

void SessionCache::store(const std::string& key, SessionTokens tokens) {
    std::lock_guard lock(mutex_);
    if (!entries_.contains(key) && entries_.size() >= capacity_ && !entries_.empty())
        entries_.erase(std::min_element(
            entries_.begin(), entries_.end(),
            [](const auto& a, const auto& b) { return a.second.last_used < b.second.last_used; }));
    entries_[key] = Entry{std::move(tokens), ++uses_};
}

void SessionCache::forget(const std::string& key, const std::string& access_jwt) {
    std::lock_guard lock(mutex_);
    const auto found = entries_.find(key);
    if (found != entries_.end() && found->second.tokens.access_jwt == access_jwt)
        entries_.erase(found);
}

SessionCache& process_sessions() {
    static SessionCache cache(kProcessSessions);
    return cache;
}

}  // namespace squawk::social::bluesky
