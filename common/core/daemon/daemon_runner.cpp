#include "common/core/daemon/daemon_runner.hpp"

#include "common/core/config/config.hpp"
#include "common/core/daemon/daemon_setup.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/metrics/metrics_server.hpp"
#include "common/core/systemd/notifier.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <stdexcept>

namespace squawk::daemon {
namespace {

struct CommandLine {
    std::string config_path;  // empty: config::resolve_path decides
    std::string port_file;
    std::optional<int> metrics_port;
};

void write_port_file(const std::string& path, const std::optional<int>& listen,
                     const metrics::MetricsServer* metrics) {
    const std::string aside = path + ".tmp";
    {
        std::ofstream out(aside, std::ios::trunc);
        if (listen) out << "listen " << *listen << "\n";
        if (metrics) out << "metrics " << metrics->port() << "\n";
        if (!out.flush()) throw std::runtime_error("cannot write the port file " + aside);
    }
    if (std::rename(aside.c_str(), path.c_str()) != 0)
        throw std::runtime_error("cannot write the port file " + path);
}

// On the API's listen host (the interface this machine serves on). A configured port of 0 turns
// metrics off; --metrics-port 0 asks for any free port.
std::unique_ptr<metrics::MetricsServer> serve_metrics(const config::Config& config,
                                                      const DaemonSpec& spec,
                                                      const CommandLine& command_line) {
    const int configured = spec.metrics_port(config);
    if (!command_line.metrics_port && configured == 0) return nullptr;
    auto server = std::make_unique<metrics::MetricsServer>(
        config.api.listen_host, command_line.metrics_port.value_or(configured));
    log::info("metrics served", {{"host", config.api.listen_host}, {"port", server->port()}});
    return server;
}

// Serves until SIGTERM or SIGINT: READY once the service is, the watchdog while it is alive.
void serve(Service& service) {
    systemd::Notifier notifier;
    bool ready_sent = false;
    const auto stall_limit = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        notifier.watchdog_interval().value_or(std::chrono::seconds(30)));
    const auto tick = [&] {
        if (!ready_sent && service.ready()) {
            notifier.ready(service.status());
            ready_sent = true;
        }
        if (service.alive_since(std::chrono::steady_clock::now() - stall_limit))
            notifier.watchdog_if_due();
    };
    tick();
    wait_for_shutdown(tick);
    notifier.stopping();
}

}  // namespace

int run(int argc, char** argv, const DaemonSpec& spec) {
    CommandLine command_line;
    config::Config config;
    CLI::App app{spec.description, spec.program};
    app.add_option("--config", command_line.config_path, "configuration file");
    app.add_option("--port-file", command_line.port_file,
                   "write the bound ports here once listening (NAME PORT per line)");
    if (spec.metrics_port)
        app.add_option_function<int>(
               "--metrics-port", [&](const int& port) { command_line.metrics_port = port; },
               "serve metrics on this port instead of the configured one; 0 picks a free port")
            ->check(CLI::Range(0, 65535));
    if (spec.add_options) spec.add_options(app);
    std::unique_ptr<Service> service;
    try {
        app.parse(argc, argv);
        config = config::load(config::resolve_path(command_line.config_path));
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help();
        return 0;
    } catch (const CLI::Success&) {
        return 0;
    } catch (const CLI::ParseError& e) {
        std::cerr << spec.program << ": " << e.what() << "\n";
        return 2;
    } catch (const config::ConfigError& e) {
        std::cerr << spec.program << ": " << e.what() << "\n";
        return 2;
    }
    prepare(config, spec.component);

    std::unique_ptr<metrics::MetricsServer> metrics_server;
    try {
        service = spec.make(config);
        if (spec.metrics_port) metrics_server = serve_metrics(config, spec, command_line);
        service->start();
        if (!command_line.port_file.empty())
            write_port_file(command_line.port_file, service->listen_port(), metrics_server.get());
    } catch (const std::exception& e) {
        log::error("cannot start", {{"error", e.what()}});
        if (service) service->stop();
        log::flush();
        return 1;
    }
    serve(*service);
    service->stop();
    log::flush();
    return 0;
}

}  // namespace squawk::daemon
