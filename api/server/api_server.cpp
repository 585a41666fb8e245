#include "api/server/api_server.hpp"

#include "api/handlers/routes.hpp"
#include "api/server/api_handler.hpp"
#include "common/core/config/config.hpp"
#include "common/core/log/logger.hpp"

#include <pistache/endpoint.h>

#include <algorithm>
#include <stdexcept>

namespace squawk::api {

ApiServer::ApiServer(const config::Config& config)
    : config_(config),
      mysql_(config.mysql),
      redis_(config.redis, config.api.threads * 2),
      services_(config, mysql_, redis_) {}

ApiServer::~ApiServer() {
    stop();
}

void ApiServer::start() {
    services_.request_log.start();
    const auto& api = config_.api;
    endpoint_ = std::make_unique<Pistache::Http::Endpoint>(
        Pistache::Address(api.listen_host, Pistache::Port(api.listen_port)));
    // Pistache answers a request over maxRequestSize (headers included) with its own plain-text
    // 413. Giving it eight times our body limit lets every body between our limit and that
    // reach the handler, which answers with the JSON envelope; only absurd uploads get the text.
    // Upload routes take up to media.max_upload_bytes, plus a megabyte for the form's framing
    // and for answering a slightly larger body with the envelope too.
    constexpr size_t kUploadSlack = 1024 * 1024;
    const auto max_request =
        std::max(static_cast<size_t>(api.max_body_bytes) * 8,
                 static_cast<size_t>(config_.media.max_upload_bytes) + kUploadSlack);
    endpoint_->init(Pistache::Http::Endpoint::options()
                        .threads(api.threads)
                        .maxRequestSize(max_request)
                        .flags(Pistache::Tcp::Options::ReuseAddr));
    auto router = std::make_shared<const Router>(route_table());
    endpoint_->setHandler(Pistache::Http::make_handler<ApiHandler>(services_, router));
    try {
        endpoint_->serveThreaded();
    } catch (const std::exception& e) {
        throw std::runtime_error("cannot listen on " + api.listen_host + ":" +
                                 std::to_string(api.listen_port) + ": " + e.what());
    }
    serving_ = true;
    log::info("listening",
              {{"host", api.listen_host}, {"port", *listen_port()}, {"threads", api.threads}});
}

void ApiServer::stop() {
    if (serving_) endpoint_->shutdown();
    serving_ = false;
    services_.request_log.stop();
}

std::optional<int> ApiServer::listen_port() const {
    if (!serving_) return std::nullopt;
    return static_cast<int>(endpoint_->getPort());
}

std::string ApiServer::status() const {
    return "serving on " + config_.api.listen_host + ":" +
           std::to_string(listen_port().value_or(0));
}

}  // namespace squawk::api
