// What every squawkctl command shares: the --config path and, opened on first use, the loaded
// configuration and the MySQL and Redis connections it names.
#pragma once

#include "common/core/config/config.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/core/redis/redis_client.hpp"

#include <memory>
#include <optional>
#include <string>

namespace squawk::ctl {

class Context {
  public:
    std::string config_option;  // bound to --config; empty means the default lookup

    const config::Config& config();
    db::MysqlPool& mysql();
    redis::RedisClient& redis();

  private:
    std::optional<config::Config> config_;
    std::unique_ptr<db::MysqlPool> mysql_;
    std::unique_ptr<redis::RedisClient> redis_;
};

// Throws UsageError unless the workspace exists.
void require_workspace(db::Session& s, long long workspace_id);

}  // namespace squawk::ctl
