#include "ctl/context.hpp"

#include "common/core/config/config.hpp"
#include "common/domain/workspace/workspace_repository.hpp"
#include "ctl/usage_error.hpp"

namespace squawk::ctl {

const config::Config& Context::config() {
    if (!config_) config_ = config::load(config::resolve_path(config_option));
    return *config_;
}

db::MysqlPool& Context::mysql() {
    if (!mysql_) {
        // One command at a time needs one connection.
        auto settings = config().mysql;
        settings.pool_size = 1;
        mysql_ = std::make_unique<db::MysqlPool>(settings);
    }
    return *mysql_;
}

redis::RedisClient& Context::redis() {
    if (!redis_) redis_ = std::make_unique<redis::RedisClient>(config().redis);
    return *redis_;
}

void require_workspace(db::Session& s, long long workspace_id) {
    if (!workspace::WorkspaceRepository::find(s, workspace_id))
        throw UsageError("workspace " + std::to_string(workspace_id) + " does not exist");
}

}  // namespace squawk::ctl
