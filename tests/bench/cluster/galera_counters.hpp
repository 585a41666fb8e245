// Galera's status counters (SHOW GLOBAL STATUS LIKE 'wsrep_%') read from each node, and what a
// run cost the cluster as the difference of the counters before and after it.
#pragma once

#include "common/core/db/mysql_settings.hpp"

#include <map>
#include <string>
#include <vector>

namespace squawk::bench::cluster {

// The numeric wsrep_% counters of one node, by name.
using WsrepStatus = std::map<std::string, double>;

// `node` must name one node alone (no mysql.hosts), so the counters are that node's.
WsrepStatus wsrep_status(const config::MysqlSettings& node);
// Each node's counters, in the order of `nodes`.
std::vector<WsrepStatus> cluster_status(const std::vector<config::MysqlSettings>& nodes);
// A counter the node does not report reads as 0.
double counter(const WsrepStatus& status, const std::string& name);

// What one cluster run cost Galera, summed over the nodes unless it says otherwise.
struct GaleraCost {
    double jobs = 0;
    double seconds = 0;
    double writesets = 0;  // replicated from the node that committed them
    double bytes = 0;
    double cert_failures = 0;
    double bf_aborts = 0;
    double paused_seconds = 0;  // flow control, the longest any node saw
    std::vector<double> writesets_by_node;
    double cert_deps_distance = 0;  // after the run, on the node that took the most writes

    // Adds one run, from every node's counters before and after it; several runs accumulate.
    void add(const std::vector<WsrepStatus>& before, const std::vector<WsrepStatus>& after,
             double run_jobs, double run_seconds);
};

}  // namespace squawk::bench::cluster
