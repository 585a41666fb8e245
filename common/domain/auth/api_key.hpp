// API keys: sqk_live_/sqk_test_ plus 32 random bytes. Only the SHA-256 of a key is stored, with a
// short prefix to recognise it in logs; the key itself is shown once, when it is created.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"

#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace squawk::auth {

enum class KeyType { live, test };

struct ApiKey {
    long long id = 0;
    long long workspace_id = 0;
    KeyType type = KeyType::live;
    std::set<std::string> scopes;  // "*" grants every scope
    std::optional<int> rate_limit;
    std::string prefix;
    bool revoked = false;

    bool has_scope(std::string_view scope) const;
};

struct CreatedKey {
    ApiKey key;
    std::string secret;  // the full key; never stored
};

// A stored key as operators see it: never the key itself nor its hash.
struct KeyRecord {
    ApiKey key;
    time::TimePoint created_at;
    std::optional<time::TimePoint> revoked_at;
};

// Every scope of spec section 5.
const std::set<std::string>& known_scopes();

// True when `text` has the shape of a Squawk key; says nothing about whether it exists.
bool looks_like_key(std::string_view text);
std::string key_prefix(std::string_view key);

class ApiKeyRepository {
  public:
    // `scopes` holds known scope names or the single value "*".
    static CreatedKey create(db::Session& s, long long workspace_id, KeyType type,
                             const std::set<std::string>& scopes, std::optional<int> rate_limit);
    // Looks a presented key up by its hash; revoked keys are returned with revoked = true.
    static std::optional<ApiKey> find_by_secret(db::Session& s, std::string_view secret);
    static bool revoke(db::Session& s, long long key_id);
    // Every key of the workspace, revoked ones included, oldest first.
    static std::vector<KeyRecord> list(db::Session& s, long long workspace_id);
};

}  // namespace squawk::auth
