// The Galera side of the comparison (cluster_side.hpp).
#include "tests/bench/cluster/cluster_side.hpp"

#include "tests/bench/cluster/daemon_settings.hpp"
#include "tests/bench/support/bench.hpp"

#include <stdexcept>
#include <string>

namespace squawk::bench::cluster {
namespace {

// Each node of the cluster alone, for its own status counters and timings.
std::vector<config::MysqlSettings> galera_nodes(const config::MysqlSettings& whole) {
    std::vector<config::MysqlSettings> nodes;
    for (const auto& address : whole.hosts) {
        config::MysqlSettings node = whole;
        node.host = address.host;
        node.port = address.port;
        node.hosts.clear();
        node.wsrep_sync_wait = 0;
        node.pool_size = 1;
        nodes.push_back(std::move(node));
    }
    return nodes;
}

config::MysqlSettings with_sync_wait(config::MysqlSettings settings) {
    settings.wsrep_sync_wait = 1;
    return settings;
}

config::MysqlSettings with_pool_size(config::MysqlSettings settings, int size) {
    settings.pool_size = size;
    return settings;
}

std::vector<pid_t> galera_pids(const testing::LoopbackCluster& cluster) {
    std::vector<pid_t> pids;
    for (const char* name : {"mariadb-1", "mariadb-2", "mariadb-3"}) {
        const auto pid = cluster.pid(name);
        if (!pid) throw std::runtime_error(std::string(name) + " is not running");
        pids.push_back(*pid);
    }
    return pids;
}

}  // namespace

ClusterSide::ClusterSide()
    : cluster{cluster_config()},
      nodes(galera_nodes(cluster.mysql_settings())),
      db{with_pool_size(cluster.mysql_settings(), 2)},
      node_1{nodes.at(0)},
      node_1_causal{with_sync_wait(nodes.at(0))},
      database_pids(galera_pids(cluster)) {}

void ClusterSide::check_running() const {
    for (const char* name :
         {"haproxy", "api-1", "api-2", "worker-1", "worker-2", "scheduler-1", "scheduler-2"})
        if (!cluster.pid(name))
            throw std::runtime_error(std::string(name) + " exited\n" + cluster.post_mortem());
}

double ClusterSide::database_cpu_seconds() const {
    double total = 0;
    for (pid_t pid : database_pids) total += process_cpu_seconds(pid);
    return total;
}

}  // namespace squawk::bench::cluster
