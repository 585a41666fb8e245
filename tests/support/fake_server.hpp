// One fake of tests/fakes running as a child process: started with its arguments, its port read
// from the "port <n>" line it prints, its control API called with JSON, stopped on destruction.
#pragma once

#include "tests/support/http_client.hpp"
#include "tests/support/process.hpp"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace squawk::testing {

class FakeServer {
  public:
    // `binary` is a program of the build's bin directory.
    FakeServer(const std::string& binary, const std::vector<std::string>& arguments);
    ~FakeServer();
    FakeServer(const FakeServer&) = delete;
    FakeServer& operator=(const FakeServer&) = delete;

    int port() const { return port_; }
    pid_t pid() const { return process_->pid(); }
    // http://127.0.0.1:<port><path>
    std::string url(const std::string& path) const;
    // A call of the fake's control API; throws unless it answers 200.
    nlohmann::json control(const std::string& method, const std::string& path,
                           const nlohmann::json& body = nullptr);

  private:
    std::string binary_;
    std::string log_path_;
    std::unique_ptr<ChildProcess> process_;
    int port_ = 0;
    std::unique_ptr<HttpClient> http_;
};

}  // namespace squawk::testing
