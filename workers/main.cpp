// squawk-worker: runs the configured job pools until SIGTERM or SIGINT, then stops gracefully.
#include "common/core/config/config.hpp"
#include "common/core/daemon/daemon_setup.hpp"
#include "common/core/http/http_client.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/metrics/queue_metrics.hpp"
#include "common/core/systemd/notifier.hpp"
#include "workers/runtime/command_line.hpp"
#include "workers/runtime/worker_runtime.hpp"

#include <iostream>

using namespace squawk;

int main(int argc, char** argv) {
    workers::WorkerCommandLine command_line;
    config::Config config;
    std::vector<std::string> pools;
    try {
        command_line =
            workers::parse_worker_command_line(std::vector<std::string>(argv + 1, argv + argc));
        if (command_line.help) {
            std::cout << *command_line.help;
            return 0;
        }
        config = config::load(config::resolve_path(command_line.config_path));
        pools = workers::apply_command_line(command_line, config);
    } catch (const workers::UsageError& e) {
        std::cerr << "squawk-worker: " << e.what() << "\n";
        return 2;
    } catch (const config::ConfigError& e) {
        std::cerr << "squawk-worker: " << e.what() << "\n";
        return 2;
    }
    daemon::prepare(config, "worker");
    http::global_init();

    const std::string worker_id =
        command_line.worker_id.empty() ? workers::default_worker_id() : command_line.worker_id;
    workers::WorkerRuntime runtime(config, pools, worker_id, workers::builtin_tasks());
    const auto queue_gauges = metrics::export_queue_depths(config.redis, pools);
    std::unique_ptr<metrics::MetricsServer> metrics_server;
    try {
        metrics_server = metrics::serve_metrics(config, config.workers.metrics_port);
    } catch (const std::exception& e) {
        log::error("cannot serve metrics", {{"error", e.what()}});
        return 1;
    }
    runtime.start();

    systemd::Notifier notifier;
    bool ready_sent = false;
    const auto stall_limit = notifier.watchdog_interval().value_or(std::chrono::seconds(30));
    daemon::wait_for_shutdown([&] {
        if (!ready_sent && runtime.ready()) {
            notifier.ready();
            ready_sent = true;
        }
        // A fetch loop that stopped going round is a hang systemd should restart.
        if (runtime.alive_since(
                std::chrono::steady_clock::now() -
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(stall_limit)))
            notifier.watchdog_if_due();
    });
    notifier.stopping();
    runtime.stop();
    return 0;
}
