// squawk-api: the HTTP front. Serves the route table on Pistache until SIGTERM or SIGINT.
#include "api/openapi/openapi_document.hpp"
#include "api/server/api_server.hpp"
#include "common/core/daemon/daemon_runner.hpp"
#include "common/core/http/http_client.hpp"
#include "common/core/log/logger.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

using namespace squawk;

int main(int argc, char** argv) {
    return daemon::run(argc, argv,
                       {.program = "squawk-api",
                        .description = "squawk-api: the Squawk HTTP API",
                        .component = "api",
                        .add_options =
                            [](CLI::App& app) {
                                app.add_flag_callback(
                                    "--print-openapi",
                                    [] {
                                        std::cout << api::openapi_document() << "\n";
                                        throw CLI::Success();
                                    },
                                    "print the OpenAPI document and exit");
                            },
                        .make = [](config::Config& config) -> std::unique_ptr<daemon::Service> {
                            // One access line per request: written in batches rather than one write
                            // each.
                            log::buffer_routine_lines(std::chrono::milliseconds(100));
                            http::global_init();
                            return std::make_unique<api::ApiServer>(config);
                        }});
}
