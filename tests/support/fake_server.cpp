#include "tests/support/fake_server.hpp"

#include "tests/support/test_database.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

namespace squawk::testing {

FakeServer::FakeServer(const std::string& binary, const std::vector<std::string>& arguments)
    : binary_(binary) {
    log_path_ = (std::filesystem::temp_directory_path() / (unique_name(binary) + ".log")).string();
    std::vector<std::string> command{ServerEnv::get().bin_dir + "/" + binary};
    command.insert(command.end(), arguments.begin(), arguments.end());
    process_ = std::make_unique<ChildProcess>(command, log_path_);
    for (int i = 0; i < 500 && port_ == 0; ++i) {
        std::ifstream in(log_path_);
        std::string word;
        int port = 0;
        if (in >> word >> port && word == "port")
            port_ = port;
        else
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (port_ == 0) throw std::runtime_error(binary + " did not start");
    http_ = std::make_unique<HttpClient>("http://127.0.0.1:" + std::to_string(port_));
}

FakeServer::~FakeServer() {
    process_->stop(std::chrono::milliseconds(500));
    std::error_code ec;
    std::filesystem::remove(log_path_, ec);
}

std::string FakeServer::url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
}

nlohmann::json FakeServer::control(const std::string& method, const std::string& path,
                                   const nlohmann::json& body) {
    const auto r = http_->send(
        method, path, body.is_null() ? std::nullopt : std::optional<std::string>(body.dump()),
        {{"Content-Type", "application/json"}});
    if (r.status != 200) throw std::runtime_error(binary_ + " control call failed: " + path);
    return r.json;
}

}  // namespace squawk::testing
