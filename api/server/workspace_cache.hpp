// Workspace records (name, creation time) cached in the API process for GET /me, trusted while
// the identity epoch they were read under is current: renaming a workspace announces a new epoch.
#pragma once

#include "api/server/epoch_cache.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/domain/workspace/workspace_repository.hpp"

#include <chrono>
#include <optional>

namespace squawk::api {

class WorkspaceCache {
  public:
    explicit WorkspaceCache(std::chrono::seconds lifetime) : entries_(lifetime) {}

    // From the cache when read under `epoch` (the request's identity epoch), else from MySQL and
    // then cached under it. Without an epoch, always from MySQL.
    std::optional<workspace::Workspace> find(db::MysqlPool& mysql, long long id,
                                             std::optional<long long> epoch);

  private:
    EpochCache<workspace::Workspace> entries_;
};

}  // namespace squawk::api
