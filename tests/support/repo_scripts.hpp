// The repository's server scripts (scripts/servers.sh, galera.sh, sentinel.sh) as tests run them,
// and the KEY=VALUE files they write.
#pragma once

#include "tests/support/process.hpp"

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace squawk::testing {

// Runs scripts/<name> with `args` under bash, `env` added to its environment; throws with its
// error output when it fails, else returns what it printed.
CommandResult run_script(const std::string& name, const std::vector<std::string>& args,
                         std::chrono::milliseconds timeout = std::chrono::seconds(180),
                         const std::map<std::string, std::string>& env = {});

// The KEY=VALUE lines of `path`; other lines are skipped.
std::map<std::string, std::string> read_env_file(const std::string& path);

}  // namespace squawk::testing
