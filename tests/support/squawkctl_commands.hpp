// The squawkctl commands that set a deployment up for a test (workspaces, keys, credit), whatever
// runs squawkctl against it: a Stack's config file or a cluster's environment.
#pragma once

#include "tests/support/process.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace squawk::testing {

class SquawkctlCommands {
  public:
    using Runner = std::function<CommandResult(const std::vector<std::string>& args)>;
    explicit SquawkctlCommands(Runner run) : run_(std::move(run)) {}

    // Each throws with squawkctl's error output unless it succeeds.
    long long create_workspace(const std::string& name);
    // `type` is test or live, `scopes` as squawkctl takes them ("all" or "a,b"); a key of its own
    // requests a minute when `rate_limit` is set.
    std::string create_key(long long workspace_id, const std::string& type,
                           const std::string& scopes, std::optional<long long> rate_limit = {});
    void credit(long long workspace_id, const std::string& amount);

  private:
    // What `args` printed, trimmed.
    std::string run(const std::vector<std::string>& args);

    Runner run_;
};

}  // namespace squawk::testing
