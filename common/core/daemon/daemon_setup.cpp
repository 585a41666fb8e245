#include "common/core/daemon/daemon_setup.hpp"

#include "common/core/config/config.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/time/clock.hpp"

#include <pthread.h>

#include <csignal>

namespace squawk::daemon {
namespace {

sigset_t shutdown_signals() {
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    return signals;
}

}  // namespace

void prepare(const config::Config& config, const std::string& component) {
    log::set_component(component);
    log::set_level(config.log.level);
    time::set_time_scale(config.time_scale);
    const sigset_t signals = shutdown_signals();
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    std::signal(SIGPIPE, SIG_IGN);
}

void wait_for_shutdown(const std::function<void()>& tick) {
    const sigset_t signals = shutdown_signals();
    for (;;) {
        const timespec wait{0, 250 * 1000 * 1000};
        const int signal = sigtimedwait(&signals, nullptr, &wait);
        if (signal == SIGTERM || signal == SIGINT) {
            log::info("shutdown requested", {{"signal", signal == SIGTERM ? "SIGTERM" : "SIGINT"}});
            return;
        }
        tick();
    }
}

}  // namespace squawk::daemon
