// One whole Squawk deployment per end-to-end test: its own database, Redis prefix, config file and
// temp dir, set up through the real squawkctl, with squawk-api, squawk-worker and
// squawk-scheduler running as child processes that a test may kill, restart or starve of servers.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "tests/support/http_client.hpp"
#include "tests/support/json_api.hpp"
#include "tests/support/process.hpp"
#include "tests/support/squawkctl_commands.hpp"
#include "tests/support/test_database.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace squawk::testing {

struct StackOptions {
    double time_scale = 0.05;
    int lease_seconds = 3;
    int max_attempts = 5;
    long long max_body_bytes = 65536;
    int api_threads = 2;
    int mysql_pool_size = 4;  // per process
    bool start_worker = true;
    bool start_scheduler = true;
    std::vector<std::string> worker_arguments = {"--pools", "generate"};
    // Loopback fakes need it; target-safety tests turn it off.
    bool allow_private_targets = true;
    // TOML appended to the generated config: sections a test needs that the stack does not write.
    std::string extra_config;
    // api.public_base_url: a name, not where the API listens. Platforms that send the user back
    // only to https addresses (Meta's) need an https one.
    std::string public_base_url = "http://api.e2e.test/v1";
};

// Most API tests need no worker; tests of the API alone need no scheduler either.
StackOptions without_worker();
StackOptions api_only();

enum class Process { api, worker, scheduler };

// A workspace and two keys with every scope.
struct Tenant {
    long long workspace_id = 0;
    std::string test_key;
    std::string live_key;
};

class Stack : public JsonApi {
  public:
    explicit Stack(StackOptions options = {});
    ~Stack() override;
    Stack(const Stack&) = delete;
    Stack& operator=(const Stack&) = delete;

    // The workspace the stack was created with.
    const Tenant& tenant() const { return tenant_; }
    Tenant create_tenant(const std::string& name);
    // `type` is test or live, `scopes` as squawkctl takes them ("all" or "a,b"); a key of its own
    // requests a minute when `rate_limit` is set (so polling never meets the workspace's limit).
    std::string create_key(long long workspace_id, const std::string& type,
                           const std::string& scopes, std::optional<long long> rate_limit = {});
    // squawkctl wallet credit; throws unless it succeeds.
    void credit(long long workspace_id, const std::string& amount);
    // squawkctl --config <this stack's file> args...
    CommandResult ctl(const std::vector<std::string>& args);

    // JsonApi::request, its answer logged for the check against the OpenAPI document.
    HttpResponse request(const std::string& method, const std::string& path,
                         const nlohmann::json& body = nullptr, const std::string& key = "",
                         const Headers& headers = {}) override;
    // Sends `body` as is (malformed JSON, oversized payloads).
    HttpResponse request_raw(const std::string& method, const std::string& path,
                             const std::string& body, const std::string& key,
                             const Headers& headers = {});

    // Starts one more squawk-api on the same database, Redis and settings but its own port (as a
    // deployment runs several); returns its base URL. It runs until the stack is destroyed.
    std::string start_extra_api();

    void start(Process process);
    void kill(Process process, int signal_number);
    std::optional<int> wait_exit(Process process, std::chrono::milliseconds timeout);
    bool running(Process process);
    pid_t pid(Process process);

    // testing::wait_until (tests/support/wait.hpp).
    static bool wait_until(const std::function<bool()>& predicate,
                           std::chrono::milliseconds timeout,
                           std::chrono::milliseconds interval = std::chrono::milliseconds(50));

    void stop_mysql();
    void start_mysql();
    void stop_redis();
    void start_redis();
    void flush_redis();

    // The stack's own database, for checks the API does not expose (row counts).
    db::MysqlPool& db() { return *db_; }
    long long count(const std::string& sql, const db::Params& params = {});
    const std::string& dir() const { return dir_; }
    const std::string& config_path() const { return config_path_; }
    const config::RedisSettings& redis_settings() const { return redis_; }
    std::string media_dir() const { return dir_ + "/media"; }
    // Where the API listens: a port it picked itself (port 0) and reported in its port file.
    std::string base_url() const;
    // The API's public URLs (api.public_base_url): a name, not where it listens.
    const std::string& public_base_url() const { return options_.public_base_url; }
    // The API path (/v1/...) of an absolute URL the API published (download_url, upload_url, a
    // platform's redirect back to a callback); throws when `url` is not under public_base_url.
    std::string path_of(const std::string& url) const;
    // Where a process serves GET /metrics (the API on its own port, the others on a port they
    // picked with --metrics-port 0).
    std::string metrics_url(Process process);
    // Where to look when something went wrong: the temp dir and the end of each daemon's log.
    std::string post_mortem() const;

  private:
    SquawkctlCommands commands();
    void write_config(const std::string& path);
    // Each daemon reports the ports it bound (--port-file) in <dir>/<name>.ports.
    std::string port_file_of(const std::string& name) const;
    // The port `name` that `process` wrote to `port_file`, waiting for the file while it runs.
    int bound_port(ChildProcess& process, const std::string& port_file, const std::string& name);
    void wait_for_health(HttpClient& client, ChildProcess& process);
    void wait_for_queue_epoch();
    void servers(const std::string& command);
    ChildProcess* child(Process process);

    StackOptions options_;
    std::string dir_;
    std::string config_path_;
    int port_ = 0;  // the API's, once started
    config::MysqlSettings mysql_;
    config::RedisSettings redis_;
    Tenant tenant_;
    std::unique_ptr<db::MysqlPool> db_;
    std::unique_ptr<HttpClient> http_;
    std::map<Process, std::unique_ptr<ChildProcess>> children_;
    std::vector<std::unique_ptr<ChildProcess>> extra_apis_;
    bool mysql_stopped_ = false;
    bool redis_stopped_ = false;
};

}  // namespace squawk::testing
