// Galera's status counters and what a run cost the cluster (galera_counters.hpp).
#include "tests/bench/cluster/galera_counters.hpp"

#include "common/core/db/mysql_pool.hpp"

#include <algorithm>
#include <cstdlib>

namespace squawk::bench::cluster {

WsrepStatus wsrep_status(const config::MysqlSettings& node) {
    const auto rows = db::MysqlPool(node).run(
        [](db::Session& s) { return s.query("SHOW GLOBAL STATUS LIKE 'wsrep_%'"); });
    WsrepStatus status;
    for (const auto& row : rows) {
        const std::string value = row.optional_text(1).value_or("");
        char* end = nullptr;
        const double number = std::strtod(value.c_str(), &end);
        if (!value.empty() && end == value.c_str() + value.size()) status[row.text(0)] = number;
    }
    return status;
}

std::vector<WsrepStatus> cluster_status(const std::vector<config::MysqlSettings>& nodes) {
    std::vector<WsrepStatus> all;
    for (const auto& node : nodes) all.push_back(wsrep_status(node));
    return all;
}

double counter(const WsrepStatus& status, const std::string& name) {
    const auto it = status.find(name);
    return it == status.end() ? 0 : it->second;
}

void GaleraCost::add(const std::vector<WsrepStatus>& before, const std::vector<WsrepStatus>& after,
                     double run_jobs, double run_seconds) {
    jobs += run_jobs;
    seconds += run_seconds;
    writesets_by_node.resize(after.size());
    double most_paused = 0;
    size_t busiest = 0;
    for (size_t n = 0; n < after.size(); ++n) {
        const auto delta = [&](const std::string& name) {
            return counter(after[n], name) - counter(before[n], name);
        };
        writesets += delta("wsrep_replicated");
        writesets_by_node[n] += delta("wsrep_replicated");
        bytes += delta("wsrep_replicated_bytes");
        cert_failures += delta("wsrep_local_cert_failures");
        bf_aborts += delta("wsrep_local_bf_aborts");
        most_paused = std::max(most_paused, delta("wsrep_flow_control_paused_ns") / 1e9);
        if (writesets_by_node[n] > writesets_by_node[busiest]) busiest = n;
    }
    paused_seconds += most_paused;
    cert_deps_distance = counter(after[busiest], "wsrep_cert_deps_distance");
}

}  // namespace squawk::bench::cluster
