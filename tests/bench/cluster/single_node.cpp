// The single-node side of the comparison (single_node.hpp).
#include "tests/bench/cluster/single_node.hpp"

#include "tests/bench/cluster/daemon_settings.hpp"
#include "tests/support/test_database.hpp"

#include <stdexcept>
#include <vector>

namespace squawk::bench::cluster {
namespace {

// A daemon on the stack's configuration, with ports and metrics of its own.
std::vector<std::string> daemon_argv(const testing::Stack& stack, const std::string& binary,
                                     const std::string& name) {
    return {testing::ServerEnv::get().bin_dir + "/" + binary,
            "--config",
            stack.config_path(),
            "--port-file",
            stack.dir() + "/" + name + ".ports",
            "--metrics-port",
            "0"};
}

}  // namespace

SingleNode::SingleNode()
    : stack{single_node_options()},
      second_api{stack.start_extra_api()},
      second_worker{daemon_argv(stack, "squawk-worker", "worker-2"), stack.dir() + "/worker-2.log"},
      second_scheduler{daemon_argv(stack, "squawk-scheduler", "scheduler-2"),
                       stack.dir() + "/scheduler-2.log"} {}

void SingleNode::check_running() {
    using testing::Process;
    for (Process p : {Process::api, Process::worker, Process::scheduler})
        if (!stack.running(p))
            throw std::runtime_error("a single-node daemon exited\n" + stack.post_mortem());
    if (!second_worker.running() || !second_scheduler.running())
        throw std::runtime_error("the second single-node worker or scheduler exited\n" +
                                 testing::log_tail(stack.dir() + "/worker-2.log") +
                                 testing::log_tail(stack.dir() + "/scheduler-2.log"));
}

}  // namespace squawk::bench::cluster
