// squawk-worker's command line: which pools to run and how many threads and fibers per pool.
// Values given here override the configuration file for this process only.
#pragma once

#include "common/core/config/config.hpp"

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace squawk::workers {

// A bad command line; the binary prints it and exits with status 2.
class UsageError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct WorkerCommandLine {
    std::string config_path;         // empty: config::resolve_path decides
    std::vector<std::string> pools;  // empty: every pool
    std::optional<int> threads;
    std::optional<int> fibers;
    std::string worker_id;            // empty: default_worker_id()
    std::optional<std::string> help;  // set when --help was asked for
};

// `args` excludes the program name.
WorkerCommandLine parse_worker_command_line(const std::vector<std::string>& args);

// The pools to run, in order without repeats; writes --threads/--fibers into their settings.
std::vector<std::string> apply_command_line(const WorkerCommandLine& command_line,
                                            config::Config& config);

}  // namespace squawk::workers
