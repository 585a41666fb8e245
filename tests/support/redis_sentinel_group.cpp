#include "tests/support/redis_sentinel_group.hpp"

#include "tests/support/repo_scripts.hpp"

#include <stdexcept>

namespace squawk::testing {

RedisSentinelGroup::RedisSentinelGroup() : dir_("squawk-sentinel-") {
    script("start");
    const auto env = read_env_file((dir_ / "sentinel.env").string());
    primary_port_ = std::stoi(env.at("PRIMARY_PORT"));
    replica_port_ = std::stoi(env.at("REPLICA_PORT"));
    auto sentinels = config::parse_host_port_list(env.at("SQUAWK_REDIS_SENTINELS"));
    if (!sentinels) throw std::runtime_error("sentinel.sh wrote no sentinel list");
    sentinels_ = std::move(*sentinels);
}

RedisSentinelGroup::~RedisSentinelGroup() {
    try {
        script("stop");
    } catch (...) {
        // Servers left running die with their scratch directory's files.
    }
}

void RedisSentinelGroup::script(const std::string& command) {
    run_script("sentinel.sh", {command, dir_.path().string()});
}

void RedisSentinelGroup::kill_primary() {
    script("kill-primary");
}

}  // namespace squawk::testing
