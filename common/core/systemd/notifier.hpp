// systemd Type=notify support for the daemons: readiness, watchdog pings and stopping.
// Every call is a no-op when the process does not run under systemd.
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace squawk::systemd {

class Notifier {
  public:
    Notifier();
    // `status`, when given, is the line `systemctl status` shows.
    void ready(const std::string& status = {});
    void stopping();
    // Sends WATCHDOG=1 when the watchdog is on and half its interval passed since the last ping.
    void watchdog_if_due();
    // The interval systemd expects pings in, when WatchdogSec is set for this unit.
    std::optional<std::chrono::microseconds> watchdog_interval() const { return interval_; }

  private:
    std::optional<std::chrono::microseconds> interval_;
    std::chrono::steady_clock::time_point last_ping_;
};

}  // namespace squawk::systemd
