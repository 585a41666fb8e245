// The repository's server scripts (scripts/servers.sh, galera.sh, sentinel.sh) as tests run them,
// and the KEY=VALUE files they write.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace squawk::testing {

// Runs scripts/<name> with `args` under bash; throws with its error output when it fails.
void run_script(const std::string& name, const std::vector<std::string>& args,
                std::chrono::milliseconds timeout = std::chrono::seconds(180));

// The KEY=VALUE lines of `path`; other lines are skipped.
std::map<std::string, std::string> read_env_file(const std::string& path);

}  // namespace squawk::testing
