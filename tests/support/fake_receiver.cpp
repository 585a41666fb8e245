#include "tests/support/fake_receiver.hpp"

#include "tests/support/test_database.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace squawk::testing {

FakeReceiver::FakeReceiver(bool record) {
    log_path_ =
        (std::filesystem::temp_directory_path() / (unique_name("fake_receiver") + ".log")).string();
    process_ = std::make_unique<ChildProcess>(
        std::vector<std::string>{ServerEnv::get().bin_dir + "/fake_webhook_receiver", "--record",
                                 record ? "true" : "false"},
        log_path_);
    for (int i = 0; i < 500 && port_ == 0; ++i) {
        std::ifstream in(log_path_);
        std::string word;
        int port = 0;
        if (in >> word >> port && word == "port")
            port_ = port;
        else
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (port_ == 0) throw std::runtime_error("the fake webhook receiver did not start");
    http_ = std::make_unique<HttpClient>("http://127.0.0.1:" + std::to_string(port_));
}

FakeReceiver::~FakeReceiver() {
    process_->stop(std::chrono::milliseconds(500));
    std::error_code ec;
    std::filesystem::remove(log_path_, ec);
}

std::string FakeReceiver::url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
}

nlohmann::json FakeReceiver::control(const std::string& method, const std::string& path,
                                     const nlohmann::json& body) {
    const auto r = http_->send(
        method, path, body.is_null() ? std::nullopt : std::optional<std::string>(body.dump()),
        {{"Content-Type", "application/json"}});
    if (r.status != 200) throw std::runtime_error("fake receiver control call failed: " + path);
    return r.json;
}

void FakeReceiver::program(const std::string& path, const nlohmann::json& responses,
                           const nlohmann::json& fallback) {
    control("POST", "/_control/program",
            {{"path", path}, {"responses", responses}, {"default", fallback}});
}

nlohmann::json FakeReceiver::requests(const std::string& path) {
    return control("GET", "/_control/requests" + (path.empty() ? "" : "?path=" + path));
}

long long FakeReceiver::count() {
    return control("GET", "/_control/count")["total"].get<long long>();
}

void FakeReceiver::clear() {
    control("POST", "/_control/clear", nlohmann::json::object());
}

std::string webhook_config(double backoff_base_seconds, int failing_threshold, int lease_seconds) {
    std::ostringstream out;
    out << "[webhooks]\n"
        << "timeout_ms = 3000\n"
        << "backoff_base_seconds = " << backoff_base_seconds << "\n"
        << "failing_threshold = " << failing_threshold << "\n"
        << "lease_seconds = " << lease_seconds << "\n";
    return out.str();
}

}  // namespace squawk::testing
