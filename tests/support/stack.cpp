#include "tests/support/stack.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/queue/job_queue.hpp"
#include "common/core/redis/redis_client.hpp"
#include "tests/support/answer_log.hpp"
#include "tests/support/repo_scripts.hpp"
#include "tests/support/wait.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace squawk::testing {
namespace {

using namespace std::chrono_literals;

std::string toml_string(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

const char* process_name(Process p) {
    switch (p) {
        case Process::api:
            return "api";
        case Process::worker:
            return "worker";
        case Process::scheduler:
            return "scheduler";
    }
    return "unknown";
}

}  // namespace

StackOptions without_worker() {
    StackOptions options;
    options.start_worker = false;
    return options;
}

StackOptions api_only() {
    StackOptions options = without_worker();
    options.start_scheduler = false;
    return options;
}

Stack::Stack(StackOptions options) : options_(std::move(options)) {
    const auto& env = ServerEnv::get();
    char pattern[] = "/tmp/squawk-e2e-XXXXXX";
    if (!mkdtemp(pattern)) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    std::filesystem::create_directories(media_dir());
    config_path_ = dir_ + "/squawk.toml";
    mysql_ = env.mysql;
    mysql_.database = unique_name("squawk_e2e");
    mysql_.pool_size = 2;
    redis_ = env.redis;
    redis_.prefix = unique_name("e2e");
    write_config(config_path_);

    const auto migrated = ctl({"migrate", "--dir", env.source_dir + "/config/migrations"});
    if (migrated.exit_code != 0)
        throw std::runtime_error("squawkctl migrate failed: " + migrated.err);
    db_ = std::make_unique<db::MysqlPool>(mysql_);
    tenant_ = create_tenant("e2e primary");

    start(Process::api);
    if (options_.start_scheduler) {
        start(Process::scheduler);
        wait_for_queue_epoch();
    }
    if (options_.start_worker) start(Process::worker);
}

// A new scheduler finds no queue epoch in the fresh Redis prefix and rebuilds the queues from
// MySQL; a job accepted while that rebuild runs would sit in its stream twice (harmless in
// effect, but counted twice by the queue metrics), so a test starts once the rebuild is done.
void Stack::wait_for_queue_epoch() {
    redis::RedisClient client(redis_);
    queue::JobQueue queue(client);
    const bool marked = wait_until(
        [&] {
            if (!children_[Process::scheduler]->running())
                throw std::runtime_error("squawk-scheduler exited during start\n" +
                                         post_mortem());
            return queue.epoch_present();
        },
        20s, 10ms);
    if (!marked) throw std::runtime_error("the scheduler marked no queue epoch\n" + post_mortem());
}

Stack::~Stack() {
    const bool keep = std::uncaught_exceptions() > 0 || std::getenv("SQUAWK_E2E_KEEP") != nullptr;
    for (auto& [process, child] : children_)
        if (child) child->stop(5s);
    for (auto& extra : extra_apis_) extra->stop(5s);
    try {
        if (mysql_stopped_) start_mysql();
        if (redis_stopped_) start_redis();
        db_->run([&](db::Session& s) { s.execute("DROP DATABASE `" + mysql_.database + "`"); });
        redis::RedisClient redis(redis_);
        std::string cursor = "0";
        do {
            const auto reply =
                redis.command({"SCAN", cursor, "MATCH", redis_.prefix + ":*", "COUNT", "1000"});
            if (reply.elements.size() < 2) break;
            cursor = reply.elements[0].text;
            redis::Command del{"DEL"};
            for (const auto& key : reply.elements[1].elements) del.push_back(key.text);
            if (del.size() > 1) redis.command(del);
        } while (cursor != "0");
    } catch (const std::exception& e) {
        std::cerr << "e2e cleanup of " << dir_ << " incomplete: " << e.what() << '\n';
    }
    if (keep) {
        std::cerr << post_mortem();
    } else {
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }
}

void Stack::write_config(const std::string& path) {
    std::ofstream out(path);
    out << "time_scale = " << options_.time_scale << "\n\n"
        << "[api]\n"
        << "listen = \"127.0.0.1:0\"\n"
        << "threads = " << options_.api_threads << "\n"
        << "max_body_bytes = " << options_.max_body_bytes << "\n"
        << "public_base_url = " << toml_string(options_.public_base_url) << "\n\n"
        << "[mysql]\n"
        << "host = " << toml_string(mysql_.host) << "\n"
        << "port = " << mysql_.port << "\n"
        << "user = " << toml_string(mysql_.user) << "\n"
        << "password = " << toml_string(mysql_.password) << "\n"
        << "database = " << toml_string(mysql_.database) << "\n"
        << "pool_size = " << options_.mysql_pool_size << "\n"
        << "connect_timeout_ms = 1000\n\n"
        << "[redis]\n"
        << "host = " << toml_string(redis_.host) << "\n"
        << "port = " << redis_.port << "\n"
        << "prefix = " << toml_string(redis_.prefix) << "\n"
        << "timeout_ms = 1000\n\n"
        << "[jobs]\n"
        << "max_attempts = " << options_.max_attempts << "\n"
        << "lease_seconds = " << options_.lease_seconds << "\n\n"
        << "[workers]\n"
        << "shutdown_grace_seconds = 2\n\n"
        << "[workers.generate]\n"
        << "threads = 1\n"
        << "fibers = 4\n\n"
        << "[scheduler]\n"
        << "tick_ms = 50\n"
        << "leader_lease_ms = 1000\n"
        << "reconcile_after_seconds = 2\n\n"
        << "[security]\n"
        << "allow_private_targets = " << (options_.allow_private_targets ? "true" : "false") << "\n"
        << "secret_key = \"" << crypto::hex(crypto::random_bytes(32)) << "\"\n\n"
        << "[media]\n"
        << "dir = " << toml_string(media_dir()) << "\n\n"
        << "[log]\n"
        << "level = \"info\"\n\n"
        << options_.extra_config << "\n";
    if (!out) throw std::runtime_error("cannot write " + path);
}

std::string Stack::base_url() const {
    return "http://127.0.0.1:" + std::to_string(port_);
}

std::string Stack::path_of(const std::string& url) const {
    const auto& base = public_base_url();
    if (!url.starts_with(base + "/"))
        throw std::runtime_error("'" + url + "' is not under " + base);
    return "/v1" + url.substr(base.size());
}

CommandResult Stack::ctl(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {ServerEnv::get().bin_dir + "/squawkctl", "--config",
                                     config_path_};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_command(argv);
}

SquawkctlCommands Stack::commands() {
    return SquawkctlCommands([this](const std::vector<std::string>& args) { return ctl(args); });
}

Tenant Stack::create_tenant(const std::string& name) {
    Tenant t;
    t.workspace_id = commands().create_workspace(name);
    t.test_key = create_key(t.workspace_id, "test", "all");
    t.live_key = create_key(t.workspace_id, "live", "all");
    return t;
}

std::string Stack::create_key(long long workspace_id, const std::string& type,
                              const std::string& scopes, std::optional<long long> rate_limit) {
    return commands().create_key(workspace_id, type, scopes, rate_limit);
}

void Stack::credit(long long workspace_id, const std::string& amount) {
    commands().credit(workspace_id, amount);
}

HttpResponse Stack::request(const std::string& method, const std::string& path,
                            const nlohmann::json& body, const std::string& key,
                            const Headers& headers) {
    std::optional<std::string> text;
    if (!body.is_null()) text = body.dump();
    auto response =
        http_->send(method, path, text, json_request_headers(headers, key, text.has_value()));
    log_answer(method, path, response);
    return response;
}

HttpResponse Stack::request_raw(const std::string& method, const std::string& path,
                                const std::string& body, const std::string& key,
                                const Headers& headers) {
    auto response = http_->send(method, path, body, json_request_headers(headers, key, true));
    log_answer(method, path, response);
    return response;
}

void Stack::start(Process process) {
    auto& slot = children_[process];
    if (slot && slot->running())
        throw std::logic_error(std::string(process_name(process)) + " is already running");
    const auto& bin = ServerEnv::get().bin_dir;
    const std::string port_file = port_file_of(process_name(process));
    std::filesystem::remove(port_file);
    std::vector<std::string> argv;
    switch (process) {
        case Process::api:
            argv = {bin + "/squawk-api", "--config", config_path_, "--port-file", port_file};
            break;
        case Process::scheduler:
            argv = {bin + "/squawk-scheduler", "--config", config_path_, "--port-file", port_file,
                    "--metrics-port",          "0"};
            break;
        case Process::worker:
            argv = {bin + "/squawk-worker", "--config", config_path_, "--port-file", port_file,
                    "--metrics-port",       "0"};
            argv.insert(argv.end(), options_.worker_arguments.begin(),
                        options_.worker_arguments.end());
            break;
    }
    slot = std::make_unique<ChildProcess>(argv, dir_ + "/" + process_name(process) + ".log");
    if (process != Process::api) return;
    port_ = bound_port(*slot, port_file, "listen");
    http_ = std::make_unique<HttpClient>(base_url());
    wait_for_health(*http_, *slot);
}

std::string Stack::port_file_of(const std::string& name) const {
    return dir_ + "/" + name + ".ports";
}

int Stack::bound_port(ChildProcess& process, const std::string& port_file,
                      const std::string& name) {
    const bool written = wait_until(
        [&] { return std::filesystem::exists(port_file) || !process.running(); }, 20s, 10ms);
    if (!written || !std::filesystem::exists(port_file))
        throw std::runtime_error("no port file " + port_file + "\n" + post_mortem());
    std::ifstream in(port_file);
    std::string listener;
    int port = 0;
    while (in >> listener >> port)
        if (listener == name) return port;
    throw std::runtime_error("no " + name + " port in " + port_file);
}

std::string Stack::start_extra_api() {
    const std::string name = "api-extra-" + std::to_string(extra_apis_.size() + 1);
    const std::string port_file = port_file_of(name);
    extra_apis_.push_back(std::make_unique<ChildProcess>(
        std::vector<std::string>{ServerEnv::get().bin_dir + "/squawk-api", "--config", config_path_,
                                 "--port-file", port_file},
        dir_ + "/" + name + ".log"));
    const int port = bound_port(*extra_apis_.back(), port_file, "listen");
    const std::string url = "http://127.0.0.1:" + std::to_string(port);
    HttpClient client(url);
    wait_for_health(client, *extra_apis_.back());
    return url;
}

void Stack::wait_for_health(HttpClient& client, ChildProcess& process) {
    const bool healthy = wait_until(
        [&] {
            if (!process.running())
                throw std::runtime_error("squawk-api exited during start\n" + post_mortem());
            try {
                return client.send("GET", "/health", std::nullopt, {}, 1s).status == 200;
            } catch (const std::runtime_error&) {
                return false;  // not listening yet
            }
        },
        20s);
    if (!healthy) throw std::runtime_error("squawk-api did not become healthy\n" + post_mortem());
}

std::string Stack::metrics_url(Process process) {
    if (process == Process::api) return base_url();
    const int port = bound_port(*child(process), port_file_of(process_name(process)), "metrics");
    return "http://127.0.0.1:" + std::to_string(port);
}

pid_t Stack::pid(Process process) {
    return child(process)->pid();
}

ChildProcess* Stack::child(Process process) {
    const auto it = children_.find(process);
    if (it == children_.end() || !it->second)
        throw std::logic_error(std::string(process_name(process)) + " was never started");
    return it->second.get();
}

void Stack::kill(Process process, int signal_number) {
    auto* c = child(process);
    c->signal(signal_number);
    // A killed process is reaped at once so that a restart never races its predecessor.
    if (signal_number == SIGKILL) c->wait_exit(10s);
}

std::optional<int> Stack::wait_exit(Process process, std::chrono::milliseconds timeout) {
    return child(process)->wait_exit(timeout);
}

bool Stack::running(Process process) {
    const auto it = children_.find(process);
    return it != children_.end() && it->second && it->second->running();
}

bool Stack::wait_until(const std::function<bool()>& predicate, std::chrono::milliseconds timeout,
                       std::chrono::milliseconds interval) {
    return testing::wait_until(predicate, timeout, interval);
}

void Stack::servers(const std::string& command) {
    run_script("servers.sh", {command, ServerEnv::get().servers_dir},
               std::chrono::milliseconds(std::chrono::seconds(60)));
}

void Stack::stop_mysql() {
    mysql_stopped_ = true;
    servers("stop-mysql");
}

void Stack::start_mysql() {
    servers("start-mysql");
    mysql_stopped_ = false;
}

void Stack::stop_redis() {
    redis_stopped_ = true;
    servers("stop-redis");
}

void Stack::start_redis() {
    servers("start-redis");
    redis_stopped_ = false;
}

void Stack::flush_redis() {
    redis::RedisClient redis(redis_);
    const auto reply = redis.command({"FLUSHALL"});
    if (reply.is_error()) throw std::runtime_error("FLUSHALL failed: " + reply.text);
}

long long Stack::count(const std::string& sql, const db::Params& params) {
    return db_->run([&](db::Session& s) { return s.query_one(sql, params)->integer(0); });
}

std::string Stack::post_mortem() const {
    std::string report = "e2e stack directory: " + dir_ + "\n";
    for (Process p : {Process::api, Process::worker, Process::scheduler}) {
        const std::string name = process_name(p);
        report +=
            "---- " + name + ".log ----\n" + log_tail(dir_ + "/" + name + ".log", 3000) + "\n";
    }
    return report;
}

}  // namespace squawk::testing
