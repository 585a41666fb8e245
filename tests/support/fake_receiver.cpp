#include "tests/support/fake_receiver.hpp"

#include <sstream>

namespace squawk::testing {

FakeReceiver::FakeReceiver(bool record)
    : server_("fake_webhook_receiver", {"--record", record ? "true" : "false"}) {}

void FakeReceiver::program(const std::string& path, const nlohmann::json& responses,
                           const nlohmann::json& fallback) {
    server_.control("POST", "/_control/program",
                    {{"path", path}, {"responses", responses}, {"default", fallback}});
}

nlohmann::json FakeReceiver::requests(const std::string& path) {
    return server_.control("GET", "/_control/requests" + (path.empty() ? "" : "?path=" + path));
}

long long FakeReceiver::count() {
    return server_.control("GET", "/_control/count")["total"].get<long long>();
}

void FakeReceiver::clear() {
    server_.control("POST", "/_control/clear", nlohmann::json::object());
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
