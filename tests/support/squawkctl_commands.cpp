#include "tests/support/squawkctl_commands.hpp"

#include <stdexcept>

namespace squawk::testing {

std::string SquawkctlCommands::run(const std::vector<std::string>& args) {
    const auto result = run_(args);
    if (result.exit_code != 0)
        throw std::runtime_error("squawkctl " + args.at(0) + " " + args.at(1) +
                                 " failed: " + result.err);
    std::string text = result.out;
    text.erase(text.find_last_not_of(" \t\r\n") + 1);
    text.erase(0, text.find_first_not_of(" \t\r\n"));
    return text;
}

long long SquawkctlCommands::create_workspace(const std::string& name) {
    return std::stoll(run({"workspace", "create", "--name", name}));
}

std::string SquawkctlCommands::create_key(long long workspace_id, const std::string& type,
                                          const std::string& scopes,
                                          std::optional<long long> rate_limit) {
    std::vector<std::string> args{"key",    "create", "--workspace", std::to_string(workspace_id),
                                  "--type", type,     "--scopes",    scopes};
    if (rate_limit) args.insert(args.end(), {"--rate-limit", std::to_string(*rate_limit)});
    return run(args);
}

void SquawkctlCommands::credit(long long workspace_id, const std::string& amount) {
    run({"wallet", "credit", "--workspace", std::to_string(workspace_id), "--amount", amount});
}

}  // namespace squawk::testing
