// The Galera side of the comparison: the whole loopback cluster, a pool to count its rows, and
// connections to node 1 (where the daemons write) without and with the daemons' causality checks.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "tests/support/loopback_cluster.hpp"

#include <sys/types.h>

#include <vector>

namespace squawk::bench::cluster {

struct ClusterSide {
    ClusterSide();

    testing::LoopbackCluster cluster;
    std::vector<config::MysqlSettings> nodes;  // each node alone, for its counters and timings
    db::MysqlPool db;
    db::MysqlPool node_1;
    db::MysqlPool node_1_causal;  // wsrep_sync_wait = 1
    std::vector<pid_t> database_pids;

    // As SingleNode::check_running.
    void check_running() const;
    // The CPU time the three MariaDB servers have run, together.
    double database_cpu_seconds() const;
};

}  // namespace squawk::bench::cluster
