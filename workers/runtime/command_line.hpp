// squawk-worker's command line: which pools to run and how many threads and fibers per pool.
// Values given here override the configuration file for this process only.
#pragma once

#include "common/core/config/config_fwd.hpp"

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace squawk::workers {

struct WorkerCommandLine {
    std::vector<std::string> pools;  // empty: every pool
    std::optional<int> threads;
    std::optional<int> fibers;
    std::string worker_id;  // empty: default_worker_id()
};

// Adds --pools, --threads, --fibers and --worker-id, parsed into `into`; a value out of range
// or an unknown pool is a parse error.
void add_worker_options(CLI::App& app, WorkerCommandLine& into);

// The pools to run, in order without repeats; writes --threads/--fibers into their settings.
std::vector<std::string> apply_command_line(const WorkerCommandLine& command_line,
                                            config::Config& config);

}  // namespace squawk::workers
