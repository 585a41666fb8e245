// squawk-scheduler: competes for the leader lease and, while leading, moves due work, reclaims
// dead workers' jobs and rebuilds lost queues; runs until SIGTERM or SIGINT.
#include "common/core/config/config.hpp"
#include "common/core/daemon/daemon_runner.hpp"
#include "scheduler/scheduler_runtime.hpp"

using namespace squawk;

int main(int argc, char** argv) {
    return daemon::run(
        argc, argv,
        {.program = "squawk-scheduler",
         .description = "squawk-scheduler: moves due work and recovers lost work",
         .component = "scheduler",
         .metrics_port = [](const config::Config& config) { return config.scheduler.metrics_port; },
         .make = [](config::Config& config) -> std::unique_ptr<daemon::Service> {
             return std::make_unique<scheduler::SchedulerRuntime>(
                 config, scheduler::default_scheduler_owner());
         }});
}
