// What the daemons run with on both sides of the comparison (daemon_settings.hpp).
#include "tests/bench/cluster/daemon_settings.hpp"

#include <cstdlib>
#include <sstream>

namespace squawk::bench::cluster {

void share_daemon_settings() {
    setenv("SQUAWK_WORKERS_GENERATE_THREADS", "2", 1);
    setenv("SQUAWK_WORKERS_GENERATE_FIBERS", "64", 1);
    setenv("SQUAWK_SCHEDULER_TICK_MS", "100", 1);
    // Jobs queued behind a 5,000-job burst are not lost; re-enqueueing them would add work.
    setenv("SQUAWK_SCHEDULER_RECONCILE_AFTER_SECONDS", "30", 1);
    setenv("SQUAWK_LOG_LEVEL", "warn", 1);
}

std::string cluster_config() {
    std::ostringstream out;
    out << "time_scale = 1.0\n\n"
        << "[api]\nthreads = " << kApiThreads << "\nmax_body_bytes = 65536\n\n"
        << "[mysql]\npool_size = " << kMysqlPoolSize << "\nconnect_timeout_ms = 1000\n\n"
        << "[redis]\ntimeout_ms = 1000\n\n"
        << "[jobs]\nmax_attempts = 5\nlease_seconds = 60\n\n"
        << "[workers]\nshutdown_grace_seconds = 2\n\n"
        << "[scheduler]\nleader_lease_ms = 1000\n\n"
        << "[security]\nallow_private_targets = true\n";
    return out.str();
}

testing::StackOptions single_node_options() {
    testing::StackOptions options;
    options.time_scale = 1.0;
    options.lease_seconds = 60;
    options.api_threads = kApiThreads;
    options.mysql_pool_size = kMysqlPoolSize;
    options.worker_arguments = {};  // every pool, as cluster.sh starts its workers
    return options;
}

}  // namespace squawk::bench::cluster
