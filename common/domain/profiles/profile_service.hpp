// What the profile routes do (spec 2.7): create, list, read, rename, pause and delete the
// profiles an owner workspace keeps, each change in one transaction. Raises ApiError (NotFound
// for a profile the owner does not have); returns domain types.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/error/api_error.hpp"
#include "common/core/redis/redis_pool.hpp"
#include "common/domain/profiles/profile_repository.hpp"

#include <optional>
#include <string>

namespace squawk::profiles {

// The longest name and external_id a profile takes, in Unicode characters.
inline constexpr size_t kMaxProfileName = 200;
inline constexpr size_t kMaxExternalId = 200;

// `request_id` only names the request in log lines.
class ProfileService {
  public:
    ProfileService(db::MysqlPool& mysql, redis::RedisPool& redis) : mysql_(mysql), redis_(redis) {}

    Profile create(long long owner_workspace_id, const std::string& name,
                   const std::optional<std::string>& external_id);
    ProfilePage list(long long owner_workspace_id, long long offset, int limit);
    Profile get(long long owner_workspace_id, long long id);
    // A rename also tells every API process that cached workspace names are stale.
    Profile update(long long owner_workspace_id, long long id, const ProfileChanges& changes,
                   const std::string& request_id);
    void remove(long long owner_workspace_id, long long id);
    Profile set_paused(long long owner_workspace_id, long long id, bool paused);

  private:
    db::MysqlPool& mysql_;
    redis::RedisPool& redis_;
};

// The NotFound every profile route answers, also for an id that is not one.
ApiError profile_not_found();

}  // namespace squawk::profiles
