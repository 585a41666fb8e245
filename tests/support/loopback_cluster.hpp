// The whole cluster of `make cluster-up` (scripts/cluster.sh) for one chaos run or benchmark, in a
// scratch folder of its own: three Galera nodes, a Redis primary with a replica and three
// Sentinels, two squawk-api behind HAProxy, two workers and two schedulers, all on loopback.
// Every process is named as in var/run/cluster/ (api-1, worker-2, mariadb-3, redis-primary, ...).
#pragma once

#include "common/core/db/mysql_settings.hpp"
#include "common/core/fs/work_files.hpp"
#include "common/core/redis/redis_settings.hpp"
#include "tests/support/process.hpp"

#include <sys/types.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace squawk::testing {

class LoopbackCluster {
  public:
    // Writes `config_toml` as the daemons' configuration file (cluster.sh gives them MySQL, Redis,
    // where to listen and the secret key on top) and returns once HAProxy answers /health.
    explicit LoopbackCluster(const std::string& config_toml);
    ~LoopbackCluster();
    LoopbackCluster(const LoopbackCluster&) = delete;
    LoopbackCluster& operator=(const LoopbackCluster&) = delete;

    // HAProxy in front of both APIs (no /v1), and each API directly (n = 1 or 2).
    std::string base_url() const;
    std::string api_url(int n) const;
    // The demo workspace cluster.sh made and its keys (rate limited by the workspace's tier).
    long long workspace_id() const { return workspace_id_; }
    const std::string& test_key() const { return test_key_; }
    const std::string& live_key() const { return live_key_; }

    // squawkctl `args` against the cluster; throws unless it succeeds, returns what it printed.
    std::string ctl(const std::vector<std::string>& args);
    // Shorthands for the squawkctl commands runs need.
    long long create_workspace(const std::string& name);
    std::string create_key(long long workspace_id, const std::string& type,
                           const std::string& scopes, std::optional<long long> rate_limit = {});
    void credit(long long workspace_id, const std::string& amount);

    // The Galera nodes (mysql.hosts, database `squawk`) and Redis through the Sentinels, with the
    // key prefix of the configuration.
    config::MysqlSettings mysql_settings() const;
    config::RedisSettings redis_settings(const std::string& prefix = "squawk") const;

    // The pid in var/run/cluster/<name>.pid, when that process runs.
    std::optional<pid_t> pid(const std::string& name) const;
    void kill(const std::string& name, int signal_number);
    // cluster.sh start|stop NAME: a daemon, haproxy or mariadb-N (start returns once it synced).
    void start(const std::string& name);
    void stop(const std::string& name);
    // SIGKILL to the Redis server the Sentinels name as primary now (a replica takes over).
    void kill_redis_primary();

    // The end of each process's log, for a failed run.
    std::string post_mortem() const;
    // Every line of the daemons' logs (APIs, workers, schedulers) naming one of `ids`.
    std::string lines_naming(const std::vector<std::string>& ids) const;

  private:
    CommandResult cluster(const std::vector<std::string>& args);
    std::map<std::string, std::string> script_env() const;
    std::string var(const std::string& relative) const;

    squawk::fs::ScratchDirectory dir_;
    std::string config_path_;
    std::map<std::string, std::string> ports_;
    long long workspace_id_ = 0;
    std::string test_key_;
    std::string live_key_;
};

}  // namespace squawk::testing
