#include "tests/support/loopback_cluster.hpp"

#include "common/core/config/host_port.hpp"
#include "tests/support/repo_scripts.hpp"
#include "tests/support/squawkctl_commands.hpp"
#include "tests/support/test_database.hpp"

#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace squawk::testing {
namespace {

using namespace std::chrono_literals;

const std::vector<std::string> kProcesses = {
    "haproxy",       "api-1",         "api-2",      "worker-1",   "worker-2",
    "scheduler-1",   "scheduler-2",   "mariadb-1",  "mariadb-2",  "mariadb-3",
    "redis-primary", "redis-replica", "sentinel-1", "sentinel-2", "sentinel-3"};

// cluster.env is written for `.`: `export NAME=value` lines.
std::map<std::string, std::string> read_exports(const std::string& path) {
    std::map<std::string, std::string> values;
    for (const auto& [name, value] : read_env_file(path)) {
        const std::string prefix = "export ";
        values[name.rfind(prefix, 0) == 0 ? name.substr(prefix.size()) : name] = value;
    }
    return values;
}

}  // namespace

LoopbackCluster::LoopbackCluster(const std::string& config_toml)
    : dir_("squawk-cluster-"), config_path_((dir_ / "squawk.toml").string()) {
    // Galera nodes started by root run as `mysql`, which must reach their folders in here.
    std::filesystem::permissions(
        dir_.path(), std::filesystem::perms::group_exec | std::filesystem::perms::others_exec,
        std::filesystem::perm_options::add);
    {
        std::ofstream out(config_path_);
        out << config_toml;
        if (!out) throw std::runtime_error("cannot write " + config_path_);
    }
    try {
        cluster({"up"});
        ports_ = read_env_file(var("cluster/ports.env"));
        const auto env = read_exports(var("cluster.env"));
        workspace_id_ = std::stoll(env.at("SQUAWK_WORKSPACE_ID"));
        test_key_ = env.at("SQUAWK_TEST_KEY");
        live_key_ = env.at("SQUAWK_LIVE_KEY");
    } catch (const std::exception& e) {
        // No destructor runs for a half-made object: stop what did start.
        const std::string report = post_mortem();
        try {
            cluster({"down"});
        } catch (...) {
        }
        throw std::runtime_error(std::string(e.what()) + "\n" + report);
    }
}

LoopbackCluster::~LoopbackCluster() {
    try {
        cluster({"down"});
    } catch (...) {
        // Servers left running die with their scratch folder's files.
    }
}

std::string LoopbackCluster::var(const std::string& relative) const {
    return (dir_ / relative).string();
}

std::map<std::string, std::string> LoopbackCluster::script_env() const {
    const auto& env = ServerEnv::get();
    return {{"SQUAWK_CLUSTER_VAR", dir_.path().string()},
            {"SQUAWK_CLUSTER_CONFIG", config_path_},
            {"BUILD_DIR", std::filesystem::path(env.bin_dir).parent_path().string()}};
}

CommandResult LoopbackCluster::cluster(const std::vector<std::string>& args) {
    return run_script("cluster.sh", args, 300s, script_env());
}

std::string LoopbackCluster::base_url() const {
    return "http://127.0.0.1:" + ports_.at("HAPROXY_PORT");
}

std::string LoopbackCluster::api_url(int n) const {
    return "http://127.0.0.1:" + ports_.at("API" + std::to_string(n) + "_PORT");
}

std::string LoopbackCluster::ctl(const std::vector<std::string>& args) {
    std::vector<std::string> full = {"ctl"};
    full.insert(full.end(), args.begin(), args.end());
    return cluster(full).out;
}

namespace {

SquawkctlCommands commands_of(LoopbackCluster& cluster) {
    return SquawkctlCommands([&cluster](const std::vector<std::string>& args) {
        CommandResult result;
        result.out = cluster.ctl(args);
        result.exit_code = 0;
        return result;
    });
}

}  // namespace

long long LoopbackCluster::create_workspace(const std::string& name) {
    return commands_of(*this).create_workspace(name);
}

std::string LoopbackCluster::create_key(long long workspace_id, const std::string& type,
                                        const std::string& scopes,
                                        std::optional<long long> rate_limit) {
    return commands_of(*this).create_key(workspace_id, type, scopes, rate_limit);
}

void LoopbackCluster::credit(long long workspace_id, const std::string& amount) {
    commands_of(*this).credit(workspace_id, amount);
}

config::MysqlSettings LoopbackCluster::mysql_settings() const {
    const auto env = read_env_file(var("cluster/galera/galera.env"));
    auto hosts = config::parse_host_port_list(env.at("SQUAWK_GALERA_HOSTS"));
    if (!hosts) throw std::runtime_error("galera.sh wrote no node list");
    config::MysqlSettings s;
    s.hosts = std::move(*hosts);
    s.user = "squawk";
    s.password = env.at("SQUAWK_GALERA_PASSWORD");
    s.database = "squawk";
    s.connect_timeout_ms = 1000;
    s.wsrep_sync_wait = 1;
    return s;
}

config::RedisSettings LoopbackCluster::redis_settings(const std::string& prefix) const {
    const auto env = read_env_file(var("cluster/redis/sentinel.env"));
    auto sentinels = config::parse_host_port_list(env.at("SQUAWK_REDIS_SENTINELS"));
    if (!sentinels) throw std::runtime_error("sentinel.sh wrote no sentinel list");
    config::RedisSettings s;
    s.sentinels = std::move(*sentinels);
    s.prefix = prefix;
    s.timeout_ms = 1000;
    return s;
}

std::optional<pid_t> LoopbackCluster::pid(const std::string& name) const {
    std::ifstream in(var("run/cluster/" + name + ".pid"));
    pid_t pid = 0;
    if (!(in >> pid) || pid <= 0) return std::nullopt;
    // A killed daemon lingers as a zombie until PID 1 reaps it: that is not running.
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return std::nullopt;
    const auto state = line.rfind(')');
    if (state == std::string::npos || line.compare(state, 3, ") Z") == 0) return std::nullopt;
    return pid;
}

void LoopbackCluster::kill(const std::string& name, int signal_number) {
    const auto running = pid(name);
    if (!running) throw std::runtime_error(name + " is not running");
    ::kill(*running, signal_number);
}

void LoopbackCluster::start(const std::string& name) {
    cluster({"start", name});
}

void LoopbackCluster::stop(const std::string& name) {
    cluster({"stop", name});
}

void LoopbackCluster::kill_redis_primary() {
    auto env = script_env();
    env["PID_DIR"] = var("run/cluster");
    run_script("sentinel.sh", {"kill-primary", var("cluster/redis")}, 60s, env);
}

std::string LoopbackCluster::lines_naming(const std::vector<std::string>& ids) const {
    std::string found;
    for (const auto& name : kProcesses) {
        if (name.rfind("mariadb-", 0) == 0 || name.rfind("redis-", 0) == 0 ||
            name.rfind("sentinel-", 0) == 0 || name == "haproxy")
            continue;
        std::ifstream in(var("log/cluster/" + name + ".log"));
        for (std::string line; std::getline(in, line);)
            for (const auto& id : ids)
                if (line.find(id) != std::string::npos) {
                    found += name + ": " + line + "\n";
                    break;
                }
    }
    return found;
}

std::string LoopbackCluster::post_mortem() const {
    std::string report = "cluster folder: " + dir_.path().string() + "\n";
    for (const auto& name : kProcesses) {
        // Each server keeps its log where its script puts it.
        std::string log = var("log/cluster/" + name + ".log");
        if (name.rfind("mariadb-", 0) == 0)
            log = var("cluster/galera/node-" + name.substr(8) + "/error.log");
        else if (name.rfind("redis-", 0) == 0 || name.rfind("sentinel-", 0) == 0)
            log = var("cluster/redis/" + name + ".log");
        report += "---- " + name + " ----\n" + log_tail(log) + "\n";
    }
    return report;
}

}  // namespace squawk::testing
