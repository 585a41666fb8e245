// squawk-worker: runs the configured job pools until SIGTERM or SIGINT, then stops gracefully.
#include "common/core/config/config.hpp"
#include "common/core/daemon/daemon_runner.hpp"
#include "common/core/http/http_client.hpp"
#include "workers/runtime/command_line.hpp"
#include "workers/runtime/worker_runtime.hpp"

using namespace squawk;

int main(int argc, char** argv) {
    workers::WorkerCommandLine command_line;
    return daemon::run(
        argc, argv,
        {.program = "squawk-worker",
         .description = "squawk-worker: runs Squawk's job pools",
         .component = "worker",
         .add_options = [&](CLI::App& app) { workers::add_worker_options(app, command_line); },
         .metrics_port = [](const config::Config& config) { return config.workers.metrics_port; },
         .make = [&](config::Config& config) -> std::unique_ptr<daemon::Service> {
             const auto pools = workers::apply_command_line(command_line, config);
             http::global_init();
             return std::make_unique<workers::WorkerRuntime>(config, pools,
                                                             command_line.worker_id.empty()
                                                                 ? workers::default_worker_id()
                                                                 : command_line.worker_id,
                                                             workers::builtin_tasks());
         }});
}
