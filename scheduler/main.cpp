// squawk-scheduler: competes for the leader lease and, while leading, moves due work, reclaims
// dead workers' jobs and rebuilds lost queues; runs until SIGTERM or SIGINT.
#include "common/core/config/config.hpp"
#include "common/core/daemon/daemon_setup.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/metrics/queue_metrics.hpp"
#include "common/core/systemd/notifier.hpp"
#include "scheduler/scheduler_runtime.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

using namespace squawk;

int main(int argc, char** argv) {
    std::string config_path;
    config::Config config;
    CLI::App app{"squawk-scheduler: moves due work and recovers lost work", "squawk-scheduler"};
    app.add_option("--config", config_path, "configuration file");
    try {
        app.parse(argc, argv);
        config = config::load(config::resolve_path(config_path));
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help();
        return 0;
    } catch (const CLI::ParseError& e) {
        std::cerr << "squawk-scheduler: " << e.what() << "\n";
        return 2;
    } catch (const config::ConfigError& e) {
        std::cerr << "squawk-scheduler: " << e.what() << "\n";
        return 2;
    }
    daemon::prepare(config, "scheduler");

    scheduler::SchedulerRuntime runtime(config, scheduler::default_scheduler_owner());
    const auto queue_gauges = metrics::export_queue_depths(
        config.redis, {std::begin(config::kPoolNames), std::end(config::kPoolNames)});
    const auto leader_gauge =
        metrics::Registry::global().add_collector([&](metrics::SampleWriter& w) {
            w.gauge("squawk_scheduler_leader", "1 while this scheduler holds the leader lease.", {},
                    runtime.is_leader() ? 1 : 0);
        });
    std::unique_ptr<metrics::MetricsServer> metrics_server;
    try {
        metrics_server = metrics::serve_metrics(config, config.scheduler.metrics_port);
    } catch (const std::exception& e) {
        log::error("cannot serve metrics", {{"error", e.what()}});
        return 1;
    }
    runtime.start();
    systemd::Notifier notifier;
    notifier.ready();
    daemon::wait_for_shutdown([&] { notifier.watchdog_if_due(); });
    notifier.stopping();
    runtime.stop();
    return 0;
}
