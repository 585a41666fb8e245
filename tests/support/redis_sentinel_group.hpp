// A Redis primary, one replica and three Sentinels watching them as "squawk", on free loopback
// ports, for one test (scripts/sentinel.sh in a scratch directory).
#pragma once

#include "common/core/config/host_port.hpp"
#include "common/core/fs/work_files.hpp"

#include <string>
#include <vector>

namespace squawk::testing {

class RedisSentinelGroup {
  public:
    static constexpr const char* kMaster = "squawk";

    // Returns once the replica is in sync and the Sentinels can agree on a failover.
    RedisSentinelGroup();
    ~RedisSentinelGroup();
    RedisSentinelGroup(const RedisSentinelGroup&) = delete;
    RedisSentinelGroup& operator=(const RedisSentinelGroup&) = delete;

    const std::vector<config::HostPort>& sentinels() const { return sentinels_; }
    // The ports the two servers started on, as primary and as replica.
    int primary_port() const { return primary_port_; }
    int replica_port() const { return replica_port_; }
    // SIGKILL to whichever server the Sentinels name as primary now.
    void kill_primary();

  private:
    void script(const std::string& command);

    squawk::fs::ScratchDirectory dir_;
    std::vector<config::HostPort> sentinels_;
    int primary_port_ = 0;
    int replica_port_ = 0;
};

}  // namespace squawk::testing
