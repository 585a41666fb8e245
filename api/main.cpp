// squawk-api: the HTTP front. Serves the route table on Pistache until SIGTERM or SIGINT.
#include "api/handlers/routes.hpp"
#include "api/openapi/openapi_document.hpp"
#include "api/server/api_handler.hpp"
#include "common/core/config/config.hpp"
#include "common/core/daemon/daemon_setup.hpp"
#include "common/core/http/http_client.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/systemd/notifier.hpp"

#include <pistache/endpoint.h>
#include <systemd/sd-daemon.h>
#include <CLI/CLI.hpp>

#include <iostream>

using namespace squawk;

int main(int argc, char** argv) {
    std::string config_path;
    config::Config config;
    CLI::App app{"squawk-api: the Squawk HTTP API", "squawk-api"};
    bool print_openapi = false;
    app.add_option("--config", config_path, "configuration file");
    app.add_flag("--print-openapi", print_openapi, "print the OpenAPI document and exit");
    try {
        app.parse(argc, argv);
        if (print_openapi) {
            std::cout << api::openapi_document() << "\n";
            return 0;
        }
        config = config::load(config::resolve_path(config_path));
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help();
        return 0;
    } catch (const CLI::ParseError& e) {
        std::cerr << "squawk-api: " << e.what() << "\n";
        return 2;
    } catch (const config::ConfigError& e) {
        std::cerr << "squawk-api: " << e.what() << "\n";
        return 2;
    }
    daemon::prepare(config, "api");
    // One access line per request: written in batches rather than one write each.
    log::buffer_routine_lines(std::chrono::milliseconds(100));
    http::global_init();

    db::MysqlPool mysql(config.mysql);
    redis::RedisPool redis(config.redis, config.api.threads * 2);
    api::Services services(config, mysql, redis);
    auto router = std::make_shared<const api::Router>(api::route_table());
    services.request_log.start();

    Pistache::Http::Endpoint endpoint(
        Pistache::Address(config.api.listen_host, Pistache::Port(config.api.listen_port)));
    // Pistache answers a request over maxRequestSize (headers included) with its own plain-text
    // 413. Giving it eight times our body limit lets every body between our limit and that
    // reach the handler, which answers with the JSON envelope; only absurd uploads get the text.
    const auto max_request = static_cast<size_t>(config.api.max_body_bytes) * 8;
    endpoint.init(Pistache::Http::Endpoint::options()
                      .threads(config.api.threads)
                      .maxRequestSize(max_request)
                      .flags(Pistache::Tcp::Options::ReuseAddr));
    endpoint.setHandler(Pistache::Http::make_handler<api::ApiHandler>(services, router));
    try {
        endpoint.serveThreaded();
    } catch (const std::exception& e) {
        log::error("cannot listen", {{"listen", config.api.listen_host + ":" +
                                                    std::to_string(config.api.listen_port)},
                                     {"error", e.what()}});
        services.request_log.stop();
        return 1;
    }
    log::info("listening", {{"host", config.api.listen_host},
                            {"port", static_cast<int>(endpoint.getPort())},
                            {"threads", config.api.threads}});

    systemd::Notifier notifier;
    notifier.ready();
    sd_notifyf(0, "STATUS=serving on %s:%d", config.api.listen_host.c_str(),
               static_cast<int>(endpoint.getPort()));
    daemon::wait_for_shutdown([&] { notifier.watchdog_if_due(); });
    notifier.stopping();
    sd_notify(0, "STATUS=stopping");
    endpoint.shutdown();
    services.request_log.stop();
    log::flush();
    return 0;
}
