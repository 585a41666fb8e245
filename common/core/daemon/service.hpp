// What a daemon runs, as the daemon runner sees it: started once the process is set up, asked
// whether it is ready and alive for systemd, stopped gracefully after SIGTERM or SIGINT.
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace squawk::daemon {

class Service {
  public:
    virtual ~Service() = default;

    // Starts the threads; a failure (a port it cannot bind) throws and the process exits 1.
    virtual void start() = 0;
    // Stops gracefully. Idempotent.
    virtual void stop() = 0;
    // READY=1 goes to systemd once this holds.
    virtual bool ready() const { return true; }
    // Whether every loop went round since `since`; a service that stopped going round withholds
    // the watchdog ping so that systemd restarts it.
    virtual bool alive_since(std::chrono::steady_clock::time_point) const { return true; }
    // The port it listens on, once started (the port file reports it as `listen`).
    virtual std::optional<int> listen_port() const { return std::nullopt; }
    // A line for `systemctl status` once started.
    virtual std::string status() const { return {}; }
};

}  // namespace squawk::daemon
