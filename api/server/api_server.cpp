#include "api/server/api_server.hpp"

#include "api/handlers/routes.hpp"
#include "api/server/api_handler.hpp"
#include "common/core/config/config.hpp"
#include "common/core/fs/work_files.hpp"
#include "common/core/log/logger.hpp"

#include <pistache/endpoint.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <stdexcept>

namespace squawk::api {
namespace {

// Every reactor thread may hold a connection at once, and the request-log writer one more.
config::MysqlSettings pool_settings(const config::Config& config) {
    auto mysql = config.mysql;
    mysql.pool_size = std::max(mysql.pool_size, config.api.threads + 1);
    return mysql;
}

}  // namespace

ApiServer::ApiServer(const config::Config& config)
    : config_(config),
      mysql_(pool_settings(config)),
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
    // reach the handler, which answers with the JSON envelope; only absurd bodies get the text.
    // Uploads never reach Pistache's buffer: the handler streams them to disk.
    const auto max_request = static_cast<size_t>(api.max_body_bytes) * 8;
    const std::chrono::milliseconds request_timeout(api.request_timeout_ms);
    endpoint_->init(Pistache::Http::Endpoint::options()
                        .threads(api.threads)
                        .maxRequestSize(max_request)
                        .headerTimeout(request_timeout)
                        .bodyTimeout(request_timeout)
                        .keepaliveTimeout(std::chrono::milliseconds(api.keepalive_timeout_ms))
                        .flags(Pistache::Tcp::Options::ReuseAddr));
    auto router = std::make_shared<const Router>(route_table());
    endpoint_->setHandler(
        Pistache::Http::make_handler<ApiHandler>(services_, router, upload_limits()));
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

UploadLimits ApiServer::upload_limits() const {
    UploadLimits limits;
    limits.max_upload_bytes = config_.media.max_upload_bytes;
    limits.budget_bytes = config_.media.upload_memory_budget_bytes;
    limits.incoming_dir = std::filesystem::path(config_.media.dir) / ".incoming";
    std::filesystem::create_directories(limits.incoming_dir);
    // An upload being received is written to at least every few seconds; one untouched for an
    // hour was left by an API process that died while receiving it.
    squawk::fs::remove_files_older_than(limits.incoming_dir, std::chrono::hours(1));
    return limits;
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
