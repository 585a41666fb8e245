// What every Squawk daemon does between reading its configuration and starting threads, and the
// loop its main thread then waits in until SIGTERM or SIGINT.
#pragma once

#include "common/core/config/config_fwd.hpp"

#include <functional>
#include <string>

namespace squawk::daemon {

// Sets the log component and level and the time scale, blocks SIGTERM and SIGINT for this thread
// and every thread started afterwards (so only wait_for_shutdown receives them) and ignores
// SIGPIPE (a peer closing a socket must not kill the process). Call before any thread starts.
void prepare(const config::Config& config, const std::string& component);

// Returns once SIGTERM or SIGINT arrives, logging which; calls `tick` about four times a second
// meanwhile (readiness and watchdog notifications).
void wait_for_shutdown(const std::function<void()>& tick);

}  // namespace squawk::daemon
