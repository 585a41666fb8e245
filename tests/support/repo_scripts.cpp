#include "tests/support/repo_scripts.hpp"

#include "tests/support/process.hpp"
#include "tests/support/test_database.hpp"

#include <fstream>
#include <stdexcept>

namespace squawk::testing {

void run_script(const std::string& name, const std::vector<std::string>& args,
                std::chrono::milliseconds timeout) {
    std::vector<std::string> argv = {"/bin/bash", ServerEnv::get().source_dir + "/scripts/" + name};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto result = run_command(argv, timeout);
    if (result.exit_code != 0)
        throw std::runtime_error(name + " " + (args.empty() ? "" : args.front()) +
                                 " failed: " + result.err);
}

std::map<std::string, std::string> read_env_file(const std::string& path) {
    std::map<std::string, std::string> values;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
        if (const auto eq = line.find('='); eq != std::string::npos && line.front() != '#')
            values[line.substr(0, eq)] = line.substr(eq + 1);
    return values;
}

}  // namespace squawk::testing
