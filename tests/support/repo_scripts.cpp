#include "tests/support/repo_scripts.hpp"

#include "tests/support/process.hpp"
#include "tests/support/test_database.hpp"

#include <fstream>
#include <stdexcept>

namespace squawk::testing {

CommandResult run_script(const std::string& name, const std::vector<std::string>& args,
                         std::chrono::milliseconds timeout,
                         const std::map<std::string, std::string>& env) {
    std::vector<std::string> argv = {"/usr/bin/env"};
    for (const auto& [variable, value] : env) argv.push_back(variable + "=" + value);
    argv.push_back("/bin/bash");
    argv.push_back(ServerEnv::get().source_dir + "/scripts/" + name);
    argv.insert(argv.end(), args.begin(), args.end());
    auto result = run_command(argv, timeout);
    if (result.exit_code != 0)
        throw std::runtime_error(name + " " + (args.empty() ? "" : args.front()) +
                                 " failed: " + result.err);
    return result;
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
