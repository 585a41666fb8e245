// The one life every Squawk daemon lives: command line, configuration (exit 2 when bad), logging,
// optional metrics port, the service's start, systemd notifications, SIGTERM/SIGINT, graceful stop.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/core/daemon/service.hpp"

#include <functional>
#include <memory>
#include <string>

namespace CLI {
class App;
}

namespace squawk::daemon {

struct DaemonSpec {
    std::string program;      // squawk-api: names the daemon in --help and in errors
    std::string description;  // the --help headline
    std::string component;    // the log component
    // Options beyond the shared --config and --port-file. A flag that ends the process before the
    // configuration is read (--print-openapi) throws CLI::Success.
    std::function<void(CLI::App&)> add_options = {};
    // The configured metrics port (0: none); the daemon gets --metrics-port when set. Empty for
    // a daemon that serves metrics on its own listener.
    std::function<int(const config::Config&)> metrics_port = {};
    // Builds the service from the configuration the command line was applied to; may adjust it.
    std::function<std::unique_ptr<Service>(config::Config&)> make;
};

// Runs the daemon until SIGTERM or SIGINT and returns the exit code: 0 after a graceful stop or
// --help, 2 for a bad command line or configuration (the message on stderr), 1 when the service
// or its metrics port cannot start.
//
// --port-file PATH: once every listener is bound, PATH holds one `NAME PORT` line per listener
// (`listen` for the service's own port, `metrics` for the metrics port); it appears whole
// (written aside and renamed), so a port of 0 in the configuration can be read back.
int run(int argc, char** argv, const DaemonSpec& spec);

}  // namespace squawk::daemon
