#include "workers/runtime/command_line.hpp"

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

WorkerCommandLine parse_worker_command_line(const std::vector<std::string>& args) {
    WorkerCommandLine result;
    CLI::App app{"squawk-worker: runs Squawk's job pools", "squawk-worker"};
    app.add_option("--config", result.config_path, "configuration file");
    app.add_option("--pools", result.pools, "pools to run, comma separated: " + pool_list())
        ->delimiter(',');
    int threads = 0;
    int fibers = 0;
    auto* threads_option =
        app.add_option("--threads", threads, "threads per pool")->check(CLI::Range(1, 64));
    auto* fibers_option =
        app.add_option("--fibers", fibers, "fibers per thread")->check(CLI::Range(1, 10000));
    app.add_option("--worker-id", result.worker_id, "stable name of this worker process");

    std::vector<std::string> storage{"squawk-worker"};
    storage.insert(storage.end(), args.begin(), args.end());
    std::vector<const char*> argv;
    for (const auto& a : storage) argv.push_back(a.c_str());
    try {
        app.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const CLI::CallForHelp&) {
        result.help = app.help();
        return result;
    } catch (const CLI::ParseError& e) {
        throw UsageError(e.what());
    }
    if (threads_option->count() > 0) result.threads = threads;
    if (fibers_option->count() > 0) result.fibers = fibers;
    for (const auto& pool : result.pools)
        if (!known_pool(pool))
            throw UsageError("unknown pool '" + pool + "' (known: " + pool_list() + ")");
    if (result.worker_id.size() > 100)
        throw UsageError("--worker-id is longer than 100 characters");
    return result;
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
