#include "tests/bench/support/bench.hpp"

#include "common/core/daemon/api_settings.hpp"
#include "tests/support/free_port.hpp"
#include "tests/support/process.hpp"
#include "tests/support/test_database.hpp"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace squawk::bench {

void in_turn(int round, const std::function<void()>& first, const std::function<void()>& second) {
    if (round % 2 == 0) {
        first();
        second();
    } else {
        second();
        first();
    }
}
namespace {

std::string env_or(const char* name, const std::string& fallback) {
    const char* value = std::getenv(name);
    return value && *value ? value : fallback;
}

std::string source_dir() {
    return env_or("SQUAWK_SOURCE_DIR", ".");
}

testing::CommandResult must_run(const std::vector<std::string>& argv,
                                std::chrono::milliseconds timeout) {
    auto result = testing::run_command(argv, timeout);
    if (result.exit_code != 0)
        throw std::runtime_error(argv.front() + " failed (exit " +
                                 std::to_string(result.exit_code) + "): " + result.err +
                                 result.out.substr(0, 2000));
    return result;
}

// wrk prints durations as 812.00us, 1.23ms or 1.02s.
double to_ms(double value, const std::string& unit) {
    if (unit == "us") return value / 1000.0;
    if (unit == "s") return value * 1000.0;
    return value;
}

}  // namespace

int repeats() {
    return std::max(1, std::atoi(env_or("BENCH_REPEATS", "3").c_str()));
}

void use_api_threads(testing::StackOptions& options) {
    const char* threads = std::getenv("BENCH_API_THREADS");
    options.api_threads = threads ? std::atoi(threads) : config::ApiSettings{}.threads;
    options.mysql_pool_size = options.api_threads + 1;
}

std::string scratch_dir() {
    const std::string dir = env_or("BENCH_SCRATCH", "/tmp/squawk-bench-scratch");
    std::filesystem::create_directories(dir);
    return dir;
}

void Report::add(const Series& s) {
    nlohmann::json row = {{"name", s.name},
                          {"unit", s.unit},
                          {"better", s.higher_is_better ? "higher" : "lower"},
                          {"squawk", s.squawk},
                          {"target", s.target}};
    if (!s.peer_name.empty()) row["peer"] = {{"name", s.peer_name}, {"values", s.peer}};
    results_.push_back(std::move(row));
}

void Report::note(const std::string& text) {
    notes_.push_back(text);
}

void Report::write() const {
    const std::string path = env_or("BENCH_OUT", "");
    const std::string text = nlohmann::json{{"results", results_}, {"notes", notes_}}.dump(2);
    if (path.empty()) {
        std::printf("%s\n", text.c_str());
        return;
    }
    std::ofstream out(path);
    out << text << "\n";
    if (!out) throw std::runtime_error("cannot write " + path);
}

void npm_install(const std::vector<std::string>& packages) {
    const std::string dir = scratch_dir();
    std::vector<std::string> missing;
    for (const auto& package : packages) {
        const std::string name = package.substr(0, package.find('@', 1));
        if (!std::filesystem::exists(dir + "/node_modules/" + name + "/package.json"))
            missing.push_back(package);
    }
    if (missing.empty()) return;
    std::vector<std::string> argv = {"npm",        "install",   "--prefix",        dir,
                                     "--no-audit", "--no-fund", "--loglevel=error"};
    argv.insert(argv.end(), missing.begin(), missing.end());
    must_run(argv, std::chrono::minutes(5));
}

nlohmann::json run_node_peer(const std::string& script, const std::vector<std::string>& args) {
    // Node resolves packages from the script's folder, so the script runs from the scratch copy.
    const std::string copy = scratch_dir() + "/" + script;
    std::filesystem::copy_file(source_dir() + "/tests/bench/peers/" + script, copy,
                               std::filesystem::copy_options::overwrite_existing);
    std::vector<std::string> argv = {"node", copy};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto result = must_run(argv, std::chrono::minutes(10));
    std::istringstream lines(result.out);
    std::string line, last;
    while (std::getline(lines, line))
        if (!line.empty()) last = line;
    return nlohmann::json::parse(last);
}

WrkResult run_wrk(const std::string& url, int connections, int seconds,
                  const std::map<std::string, std::string>& headers,
                  const std::string& lua_script) {
    std::vector<std::string> argv = {"wrk", "--latency",
                                     "-t",  "2",
                                     "-c",  std::to_string(connections),
                                     "-d",  std::to_string(seconds) + "s"};
    for (const auto& [name, value] : headers) {
        argv.push_back("-H");
        argv.push_back(name + ": " + value);
    }
    if (!lua_script.empty()) {
        argv.push_back("-s");
        argv.push_back(lua_script);
    }
    argv.push_back(url);
    const auto result = must_run(argv, std::chrono::seconds(seconds + 60));
    WrkResult r;
    std::smatch m;
    const std::string& out = result.out;
    if (std::regex_search(out, m, std::regex(R"(Requests/sec:\s+([0-9.]+))")))
        r.requests_per_second = std::stod(m[1]);
    else
        throw std::runtime_error("wrk printed no Requests/sec: " + out);
    if (std::regex_search(out, m, std::regex(R"(\s50%\s+([0-9.]+)(us|ms|s)\b)")))
        r.p50_ms = to_ms(std::stod(m[1]), m[2]);
    if (std::regex_search(out, m, std::regex(R"(\s99%\s+([0-9.]+)(us|ms|s)\b)")))
        r.p99_ms = to_ms(std::stod(m[1]), m[2]);
    if (std::regex_search(out, m, std::regex(R"(Non-2xx or 3xx responses:\s+(\d+))")))
        r.errors += std::stoll(m[1]);
    if (std::regex_search(
            out, m,
            std::regex(R"(Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+))")))
        r.errors += std::stoll(m[1]) + std::stoll(m[2]) + std::stoll(m[3]) + std::stoll(m[4]);
    return r;
}

NginxServer::NginxServer(const std::string& server_directives) {
    static int instances = 0;
    dir_ = scratch_dir() + "/nginx-" + std::to_string(getpid()) + "-" + std::to_string(++instances);
    std::filesystem::create_directories(dir_ + "/html");
    std::filesystem::create_directories(dir_ + "/logs");
    std::filesystem::create_directories(dir_ + "/tmp");
    port_ = testing::free_port();
    std::ofstream conf(dir_ + "/nginx.conf");
    conf << (geteuid() == 0 ? "user root root;\n" : "") << "worker_processes 2;\n"
         << "daemon off;\nerror_log " << dir_ << "/logs/error.log warn;\npid " << dir_
         << "/nginx.pid;\nevents { worker_connections 1024; }\n"
         // Logging every request as squawk-api does keeps the comparison fair.
         << "http {\n  access_log " << dir_ << "/logs/access.log;\n  keepalive_requests 1000000;\n"
         << "  types { application/json json; }\n"
         << "  client_body_temp_path " << dir_ << "/tmp;\n  proxy_temp_path " << dir_ << "/tmp;\n"
         << "  fastcgi_temp_path " << dir_ << "/tmp;\n  uwsgi_temp_path " << dir_ << "/tmp;\n"
         << "  scgi_temp_path " << dir_ << "/tmp;\n"
         << "  server {\n    listen 127.0.0.1:" << port_ << ";\n    root " << dir_ << "/html;\n"
         << "    " << server_directives << "\n  }\n}\n";
    conf.close();
    pid_ = fork();
    if (pid_ == 0) {
        execlp("nginx", "nginx", "-p", dir_.c_str(), "-c", (dir_ + "/nginx.conf").c_str(),
               static_cast<char*>(nullptr));
        _exit(127);
    }
    for (int i = 0; i < 100; ++i) {
        if (testing::is_listening(port_)) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    throw std::runtime_error("nginx did not start; see " + dir_ + "/logs/error.log");
}

NginxServer::~NginxServer() {
    if (pid_ > 0) {
        kill(pid_, SIGQUIT);
        int status = 0;
        waitpid(pid_, &status, 0);
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
}

std::string NginxServer::base_url() const {
    return "http://127.0.0.1:" + std::to_string(port_);
}

StaticJsonServer::StaticJsonServer(const std::string& json_body) {
    std::ofstream(nginx_.html_dir() + "/data.json") << json_body;
}

double peak_rss_mib(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
    return 0;
}

double process_cpu_seconds(pid_t pid) {
    long long nanoseconds = 0;
    const auto tasks = "/proc/" + std::to_string(pid) + "/task";
    for (const auto& task : std::filesystem::directory_iterator(tasks)) {
        long long run = 0;
        if (std::ifstream(task.path() / "schedstat") >> run) nanoseconds += run;
    }
    return static_cast<double>(nanoseconds) / 1e9;
}

namespace {

// Voluntary and involuntary, of the process's live threads.
long long context_switches(pid_t pid) {
    long long total = 0;
    const auto tasks = "/proc/" + std::to_string(pid) + "/task";
    for (const auto& task : std::filesystem::directory_iterator(tasks)) {
        std::ifstream status(task.path() / "status");
        for (std::string line; std::getline(status, line);)
            if (line.starts_with("voluntary_ctxt_switches:") ||
                line.starts_with("nonvoluntary_ctxt_switches:"))
                total += std::stoll(line.substr(line.find(':') + 1));
    }
    return total;
}

}  // namespace

ServedLoad run_wrk_on_stack(testing::Stack& stack, const std::string& url, int connections,
                            int seconds, const std::map<std::string, std::string>& headers,
                            const std::string& lua_script) {
    const pid_t api = stack.pid(testing::Process::api);
    const pid_t database = database_pid();
    const double api_before = process_cpu_seconds(api);
    const double database_before = process_cpu_seconds(database);
    const long long switches_before = context_switches(api);
    ServedLoad load;
    load.wrk = run_wrk(url, connections, seconds, headers, lua_script);
    const double requests = std::max(1.0, load.wrk.requests_per_second * seconds);
    load.api_us_per_request = (process_cpu_seconds(api) - api_before) * 1e6 / requests;
    load.database_us_per_request =
        (process_cpu_seconds(database) - database_before) * 1e6 / requests;
    load.api_switches_per_request =
        static_cast<double>(context_switches(api) - switches_before) / requests;
    return load;
}

bool favour(pid_t pid) {
    const auto tasks = "/proc/" + std::to_string(pid) + "/task";
    bool all = true;
    for (const auto& task : std::filesystem::directory_iterator(tasks)) {
        const auto tid = static_cast<id_t>(std::stol(task.path().filename()));
        if (setpriority(PRIO_PROCESS, tid, -10) != 0) all = false;
    }
    return all;
}

pid_t database_pid() {
    auto settings = testing::ServerEnv::get().mysql;
    settings.pool_size = 1;
    const auto pid_file = db::MysqlPool(settings).run(
        [](db::Session& s) { return s.query_one("SELECT @@pid_file")->text(0); });
    pid_t pid = 0;
    if (!(std::ifstream(pid_file) >> pid)) throw std::runtime_error("cannot read " + pid_file);
    return pid;
}

double median(std::vector<double> values) {
    return percentile(std::move(values), 50);
}

double percentile(std::vector<double> values, double p) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const auto rank =
        static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(values.size())));
    return values[std::min(values.size() - 1, rank == 0 ? 0 : rank - 1)];
}

std::string unlimited_test_key(testing::Stack& stack) {
    return stack.create_key(stack.tenant().workspace_id, "test", "all", 2000000000);
}

bool finds_a_row(testing::Stack& stack, const std::string& select) {
    return stack.count("SELECT COUNT(*) FROM (" + select + " LIMIT 1) AS first") > 0;
}

void wait_for_quiet_database() {
    // First every undo log purged: one big DELETE is a single log however many rows it left to
    // purge, so a short history is no measure. Then the server's own CPU time, for what else it
    // does in the background: three 100 ms windows in a row of at most 10 ms each.
    constexpr int kQuietWindows = 3;
    constexpr double kQuietSeconds = 0.010;
    auto settings = testing::ServerEnv::get().mysql;
    settings.pool_size = 1;
    db::MysqlPool(settings).run(
        [](db::Session& s) { s.execute("SET GLOBAL innodb_max_purge_lag_wait = 0"); });
    const pid_t server = database_pid();
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    double last = process_cpu_seconds(server);
    int quiet = 0;
    while (quiet < kQuietWindows && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        const double used = process_cpu_seconds(server);
        quiet = used - last <= kQuietSeconds ? quiet + 1 : 0;
        last = used;
    }
}

}  // namespace squawk::bench
