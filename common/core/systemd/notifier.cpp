#include "common/core/systemd/notifier.hpp"

#include <systemd/sd-daemon.h>

namespace squawk::systemd {

Notifier::Notifier() {
    uint64_t usec = 0;
    if (sd_watchdog_enabled(0, &usec) > 0 && usec > 0)
        interval_ = std::chrono::microseconds(static_cast<long long>(usec));
}

void Notifier::ready(const std::string& status) {
    if (status.empty()) {
        sd_notify(0, "READY=1");
    } else {
        sd_notifyf(0, "READY=1\nSTATUS=%s", status.c_str());
    }
}

void Notifier::stopping() {
    sd_notify(0, "STOPPING=1\nSTATUS=stopping");
}

void Notifier::watchdog_if_due() {
    if (!interval_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ping_ < *interval_ / 2) return;
    last_ping_ = now;
    sd_notify(0, "WATCHDOG=1");
}

}  // namespace squawk::systemd
