// Runs tests/fakes' programmable webhook receiver as a child process and talks to its control
// API: program answers per path, read back what it received.
#pragma once

#include "tests/support/fake_server.hpp"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

namespace squawk::testing {

class FakeReceiver {
  public:
    // `record` false keeps only counts (benchmarks).
    explicit FakeReceiver(bool record = true);

    int port() const { return server_.port(); }
    // http://127.0.0.1:<port><path>
    std::string url(const std::string& path) const { return server_.url(path); }
    // `responses` is consumed one per request to `path`; then `fallback` answers.
    void program(const std::string& path, const nlohmann::json& responses,
                 const nlohmann::json& fallback = {{"status", 200}});
    // Every recorded request ({path, method, headers, body, ...}), optionally for one path.
    nlohmann::json requests(const std::string& path = "");
    long long count();
    void clear();
    pid_t pid() const { return server_.pid(); }

  private:
    FakeServer server_;
};

// A [webhooks] config section for a Stack: a short timeout and the backoff base given (seconds
// before time_scale). The Stack writes the secrets key itself.
std::string webhook_config(double backoff_base_seconds = 120.0, int failing_threshold = 10,
                           int lease_seconds = 3);

}  // namespace squawk::testing
