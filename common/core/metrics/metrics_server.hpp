// GET /metrics on a port of its own, for the daemons without an HTTP front (workers, scheduler):
// one thread, one short-lived connection at a time, the global registry's text as the answer.
#pragma once

#include <atomic>
#include <string>
#include <string_view>
#include <thread>

namespace squawk::metrics {

// True when an HTTP request head asks for GET /metrics (with or without a query string).
bool is_metrics_request(std::string_view head);

class MetricsServer {
  public:
    // Binds at once (throws std::runtime_error when it cannot); port 0 picks a free port.
    MetricsServer(const std::string& host, int port);
    ~MetricsServer();
    MetricsServer(const MetricsServer&) = delete;
    MetricsServer& operator=(const MetricsServer&) = delete;

    int port() const { return port_; }

  private:
    void serve();
    void answer(int client);

    int listen_fd_ = -1;
    int port_ = 0;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

}  // namespace squawk::metrics
