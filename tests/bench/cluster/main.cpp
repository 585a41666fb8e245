// Squawk past one machine: ping jobs per second through two APIs and two workers on a three-node
// Galera cluster against the same daemons on one MariaDB node, what Galera's certification and
// replication cost on the way, and GET /v1/jobs/{id} through HAProxy against one API directly.
// This file runs the rounds and writes the report; each measurement lives in a file of its own.
#include "tests/bench/cluster/cluster_side.hpp"
#include "tests/bench/cluster/daemon_settings.hpp"
#include "tests/bench/cluster/galera_counters.hpp"
#include "tests/bench/cluster/job_polling.hpp"
#include "tests/bench/cluster/ping_throughput.hpp"
#include "tests/bench/cluster/quiet_servers.hpp"
#include "tests/bench/cluster/single_node.hpp"
#include "tests/bench/cluster/statement_latency.hpp"
#include "tests/bench/support/bench.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace squawk::bench::cluster {
namespace {

// Far above any load, so the per-minute limit runs on every request and refuses none.
constexpr long long kUnlimited = 100000000;

// What a run measures, round by round, and what it sums for the notes.
struct Figures {
    Series completed;
    Series accepted;
    Series database_cpu;
    Series commit;
    Series read;
    Series cert_failures;
    Series flow_paused;
    Series polled;
    Series polled_p99;
    GaleraCost cost;
    std::vector<double> drain_galera;
    std::vector<double> drain_single;
    long long fewest_workers_galera = 2;
    long long fewest_workers_single = 2;
    std::vector<double> commit_p99_galera;
    std::vector<double> commit_p99_single;
    long long wrk_errors = 0;
};

Series versus(const std::string& name, const std::string& unit, bool higher_is_better,
              const std::string& peer) {
    return {name, unit, higher_is_better, {}, peer, {}, "-"};
}

Figures empty_figures() {
    const std::string jobs = std::to_string(kJobs) + " ping jobs, 2 APIs + 2 workers, " +
                             std::to_string(kClientThreads) + " HTTP clients";
    const std::string single = "single MariaDB node";
    const std::string probes = ", one connection, mean of " + std::to_string(kProbes);
    const std::string polling =
        "GET /v1/jobs/{id} on the cluster, wrk " + std::to_string(kConnections) + " connections";
    Figures f;
    f.completed = versus(jobs + ", first POST to last completion", "jobs/s", true, single);
    f.accepted = versus(jobs + ", POST /v1/jobs/ping accepted", "jobs/s", true, single);
    f.database_cpu =
        versus("database CPU per 1,000 jobs (Galera: all three nodes)", "CPU s", false, single);
    f.commit = versus("one-row INSERT commit" + probes + " (Galera: node 1)", "ms", false, single);
    f.read = versus("primary-key SELECT" + probes + " (Galera: node 1, wsrep_sync_wait = 1)", "ms",
                    false, single);
    f.cert_failures =
        versus("Galera certification failures per 1,000 jobs (all nodes)", "failures", false, "");
    f.flow_paused = versus("Galera flow control pause, share of the jobs run", "%", false, "");
    f.polled = versus(polling + ", through HAProxy", "requests/s", true, "direct to one API");
    f.polled_p99 = versus(polling + ", through HAProxy, p99", "ms", false, "direct to one API");
    return f;
}

// One round of ping jobs on each side, each into a fresh workspace; returns the cluster's key.
std::string measure_jobs(int round, ClusterSide& side, SingleNode& single, Figures& f) {
    const std::string name = "cluster-bench-" + std::to_string(round + 1);
    const long long cluster_ws = side.cluster.create_workspace(name);
    const JobPath cluster_path{{side.cluster.api_url(1), side.cluster.api_url(2)},
                               side.cluster.create_key(cluster_ws, "live", "all", kUnlimited),
                               cluster_ws,
                               &side.db};
    const long long single_ws = single.stack.create_tenant(name).workspace_id;
    const JobPath single_path{{single.stack.base_url(), single.second_api},
                              single.stack.create_key(single_ws, "live", "all", kUnlimited),
                              single_ws,
                              &single.stack.db()};
    const pid_t single_pid = database_pid();

    const auto run_cluster = [&] {
        wait_for_quiet_servers(side.nodes);
        const auto before = cluster_status(side.nodes);
        const double cpu_before = side.database_cpu_seconds();
        const auto result = run_pings(cluster_path, [&] { return side.cluster.post_mortem(); });
        f.database_cpu.squawk.push_back((side.database_cpu_seconds() - cpu_before) * 1000 / kJobs);
        const auto after = cluster_status(side.nodes);
        GaleraCost cost;
        cost.add(before, after, kJobs, result.seconds);
        f.cost.add(before, after, kJobs, result.seconds);
        f.completed.squawk.push_back(result.completed_per_second);
        f.accepted.squawk.push_back(result.accepted_per_second);
        f.cert_failures.squawk.push_back(cost.cert_failures * 1000 / kJobs);
        f.flow_paused.squawk.push_back(100 * cost.paused_seconds / result.seconds);
        f.drain_galera.push_back(result.seconds - result.posting_seconds);
        f.fewest_workers_galera = std::min(f.fewest_workers_galera, result.workers);
    };
    const auto run_single = [&] {
        wait_for_quiet_servers(side.nodes);
        const double cpu_before = process_cpu_seconds(single_pid);
        const auto result = run_pings(single_path, [&] { return single.stack.post_mortem(); });
        f.database_cpu.peer.push_back((process_cpu_seconds(single_pid) - cpu_before) * 1000 /
                                      kJobs);
        f.completed.peer.push_back(result.completed_per_second);
        f.accepted.peer.push_back(result.accepted_per_second);
        f.drain_single.push_back(result.seconds - result.posting_seconds);
        f.fewest_workers_single = std::min(f.fewest_workers_single, result.workers);
    };
    bench::in_turn(round, run_cluster, run_single);
    side.check_running();
    single.check_running();
    std::cerr << "cluster bench round " << round + 1 << ": galera " << f.completed.squawk.back()
              << " jobs/s, single node " << f.completed.peer.back() << " jobs/s\n";
    return cluster_path.key;
}

// What one statement costs on Galera's node 1 against the single node, with nothing else running.
void measure_statements(ClusterSide& side, SingleNode& single, Figures& f) {
    wait_for_quiet_servers(side.nodes);
    const auto galera_commit = commit_ms(side.node_1);
    const auto single_commit = commit_ms(single.stack.db());
    f.commit.squawk.push_back(galera_commit.mean_ms);
    f.commit.peer.push_back(single_commit.mean_ms);
    f.commit_p99_galera.push_back(galera_commit.p99_ms);
    f.commit_p99_single.push_back(single_commit.p99_ms);
    f.read.squawk.push_back(read_ms(side.node_1_causal).mean_ms);
    f.read.peer.push_back(read_ms(single.stack.db()).mean_ms);
}

void measure_polling(int round, ClusterSide& side, const std::string& key, Figures& f) {
    const JobPolling polling = compare_job_polling(round, side.cluster, key);
    f.polled.squawk.push_back(polling.through_haproxy.requests_per_second);
    f.polled.peer.push_back(polling.direct.requests_per_second);
    f.polled_p99.squawk.push_back(polling.through_haproxy.p99_ms);
    f.polled_p99.peer.push_back(polling.direct.p99_ms);
    f.wrk_errors += polling.through_haproxy.errors + polling.direct.errors;
}

std::string fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

void write_report(const Figures& f) {
    Report report;
    for (const auto* series : {&f.completed, &f.accepted, &f.database_cpu, &f.commit, &f.read,
                               &f.cert_failures, &f.flow_paused, &f.polled, &f.polled_p99})
        report.add(*series);
    const auto& cost = f.cost;
    report.note("Galera against one node, end to end: the cluster ran at " +
                fixed(100 * median(f.completed.squawk) / median(f.completed.peer), 0) +
                "% of the single node's jobs/s; the last job completed " +
                fixed(median(f.drain_galera), 2) + " s (Galera) and " +
                fixed(median(f.drain_single), 2) +
                " s (single node) after the last POST was answered (medians of rounds)");
    std::string by_node;
    for (size_t n = 0; n < cost.writesets_by_node.size(); ++n)
        by_node += (n ? ", node " : "node ") + std::to_string(n + 1) + " " +
                   fixed(cost.writesets_by_node[n], 0);
    report.note("Galera writesets per job: " + fixed(cost.writesets / cost.jobs, 2) + " (" +
                fixed(cost.bytes / cost.jobs, 0) + " bytes), replicated from " + by_node +
                ": cluster.sh lists the nodes from another one for each process (api-1 and "
                "worker-2 write through node 1, api-2 and scheduler-1 node 2, worker-1 and "
                "scheduler-2 node 3)");
    report.note("Galera over " + fixed(cost.jobs, 0) + " jobs: " + fixed(cost.cert_failures, 0) +
                " certification failures, " + fixed(cost.bf_aborts, 0) +
                " brute-force aborts; flow control paused replication " +
                fixed(cost.paused_seconds, 2) + " s of " + fixed(cost.seconds, 1) +
                " s; certification dependency distance " + fixed(cost.cert_deps_distance, 1) +
                " on the node that replicated most");
    report.note("one-row commit p99: Galera node 1 " + fixed(median(f.commit_p99_galera), 2) +
                " ms, single node " + fixed(median(f.commit_p99_single), 2) + " ms");
    report.note(
        "both sides: 2 squawk-api (" + std::to_string(kApiThreads) +
        " threads), 2 squawk-worker (every pool, generate 2 threads x 64 fibers), 2 "
        "squawk-scheduler; clients post straight to each API; the cluster's Redis is a "
        "primary with a replica behind Sentinels, the single node's one Redis server; "
        "in every round at least " +
        std::to_string(f.fewest_workers_galera) + " (Galera) and " +
        std::to_string(f.fewest_workers_single) +
        " (single node) workers completed jobs; the InnoDB buffer pool is 64 MiB per Galera "
        "node, 128 MiB on the single node");
    report.note("GET /v1/jobs/{id} errors and non-2xx answers across all runs: " +
                std::to_string(f.wrk_errors));
    report.write();
}

}  // namespace
}  // namespace squawk::bench::cluster

int main() {
    using namespace squawk::bench::cluster;
    try {
        share_daemon_settings();
        std::cerr << "cluster bench: starting the cluster and the single-node stack\n";
        ClusterSide side;
        SingleNode single;
        Figures figures = empty_figures();
        for (int round = 0; round < squawk::bench::repeats(); ++round) {
            const std::string key = measure_jobs(round, side, single, figures);
            measure_statements(side, single, figures);
            measure_polling(round, side, key, figures);
        }
        write_report(figures);
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "cluster bench failed: " << e.what() << "\n";
        return 1;
    }
}
