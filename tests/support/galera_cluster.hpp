// A three-node MariaDB Galera cluster on loopback for one test (scripts/galera.sh in a scratch
// directory): its nodes' addresses for mysql.hosts, and nodes to kill, stop and start again.
#pragma once

#include "common/core/config/host_port.hpp"
#include "common/core/db/mysql_settings.hpp"
#include "common/core/fs/work_files.hpp"

#include <string>
#include <vector>

namespace squawk::testing {

class GaleraCluster {
  public:
    // Returns once all three nodes are synced (about fifteen seconds); throws otherwise.
    GaleraCluster();
    ~GaleraCluster();
    GaleraCluster(const GaleraCluster&) = delete;
    GaleraCluster& operator=(const GaleraCluster&) = delete;

    // The `squawk` database on every node, as mysql.hosts lists them.
    config::MysqlSettings settings() const;
    // The same on node `n` (1-3) alone.
    config::MysqlSettings node_settings(int n) const;
    // SIGKILL, or a clean stop; start_node waits until the node has rejoined and synced.
    void kill_node(int n);
    void stop_node(int n);
    void start_node(int n);

  private:
    void script(const std::vector<std::string>& args);

    squawk::fs::ScratchDirectory dir_;
    std::vector<config::HostPort> nodes_;
    std::string password_;
};

}  // namespace squawk::testing
