#include "workers/runtime/command_line.hpp"

#include "common/core/config/config.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>

namespace squawk::workers {
namespace {

bool known_pool(const std::string& name) {
    return std::any_of(std::begin(config::kPoolNames), std::end(config::kPoolNames),
                       [&](const char* p) { return name == p; });
}

std::string pool_list() {
    std::string out;
    for (const char* p : config::kPoolNames) out += (out.empty() ? "" : ", ") + std::string(p);
    return out;
}

}  // namespace

void add_worker_options(CLI::App& app, WorkerCommandLine& into) {
    const CLI::Validator known_pools(
        [](std::string& name) {
            return known_pool(name) ? std::string()
                                    : "unknown pool '" + name + "' (known: " + pool_list() + ")";
        },
        "POOL");
    app.add_option("--pools", into.pools, "pools to run, comma separated: " + pool_list())
        ->delimiter(',')
        ->check(known_pools);
    app.add_option_function<int>(
           "--threads", [&into](const int& n) { into.threads = n; }, "threads per pool")
        ->check(CLI::Range(1, 64));
    app.add_option_function<int>(
           "--fibers", [&into](const int& n) { into.fibers = n; }, "fibers per thread")
        ->check(CLI::Range(1, 10000));
    app.add_option("--worker-id", into.worker_id, "stable name of this worker process")
        ->check(CLI::Validator(
            [](std::string& id) {
                return id.size() > 100 ? std::string("longer than 100 characters") : std::string();
            },
            "TEXT"));
}

std::vector<std::string> apply_command_line(const WorkerCommandLine& command_line,
                                            config::Config& config) {
    std::vector<std::string> pools;
    const auto add = [&](const std::string& name) {
        if (std::find(pools.begin(), pools.end(), name) == pools.end()) pools.push_back(name);
    };
    if (command_line.pools.empty())
        for (const char* p : config::kPoolNames) add(p);
    for (const auto& p : command_line.pools) add(p);
    for (const auto& name : pools) {
        auto& settings = config.workers.pools[name];
        if (command_line.threads) settings.threads = *command_line.threads;
        if (command_line.fibers) settings.fibers = *command_line.fibers;
    }
    return pools;
}

}  // namespace squawk::workers
