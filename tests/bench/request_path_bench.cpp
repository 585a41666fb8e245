// The whole request path under load: GET /v1/me with a test key (authentication, rate limit,
// request log, envelope) at 64 connections with wrk, interleaved with nginx serving a small
// static JSON file on the same machine. Writes the BENCH_OUT JSON of the benchmark contract.
#include "tests/support/process.hpp"
#include "tests/support/stack.hpp"

#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <thread>

using namespace squawk::testing;
namespace fs = std::filesystem;

namespace {

constexpr int kConnections = 64;
constexpr int kSeconds = 10;

std::string env_or(const char* name, const std::string& fallback) {
    const char* v = std::getenv(name);
    return v && *v ? v : fallback;
}

int free_port() {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0)
        throw std::runtime_error("cannot find a free port");
    close(fd);
    return ntohs(address.sin_port);
}

struct WrkResult {
    double requests_per_second = 0;
    double p99_ms = 0;
    long long non_2xx = 0;
};

double to_ms(double value, const std::string& unit) {
    if (unit == "us") return value / 1000.0;
    if (unit == "s") return value * 1000.0;
    return value;
}

// run_command takes a path, not a name to look up.
std::string installed(std::initializer_list<const char*> candidates, const std::string& package) {
    for (const char* candidate : candidates)
        if (fs::exists(candidate)) return candidate;
    throw std::runtime_error(package + " is not installed (scripts/deps.sh installs it)");
}

WrkResult run_wrk(const std::string& url, const std::vector<std::string>& headers) {
    std::vector<std::string> argv = {installed({"/usr/bin/wrk", "/usr/local/bin/wrk"}, "wrk"),
                                     "-t2", "-c" + std::to_string(kConnections),
                                     "-d" + std::to_string(kSeconds) + "s", "--latency"};
    for (const auto& h : headers) {
        argv.push_back("-H");
        argv.push_back(h);
    }
    argv.push_back(url);
    const auto r = run_command(argv, std::chrono::seconds(kSeconds + 30));
    if (r.exit_code != 0) throw std::runtime_error("wrk failed: " + r.err + r.out);
    WrkResult w;
    std::smatch m;
    if (std::regex_search(r.out, m, std::regex(R"(Requests/sec:\s+([0-9.]+))")))
        w.requests_per_second = std::stod(m[1]);
    if (std::regex_search(r.out, m, std::regex(R"(\s99%\s+([0-9.]+)(us|ms|s)\b)")))
        w.p99_ms = to_ms(std::stod(m[1]), m[2]);
    if (std::regex_search(r.out, m, std::regex(R"(Non-2xx or 3xx responses:\s+([0-9]+))")))
        w.non_2xx = std::stoll(m[1]);
    if (w.requests_per_second == 0) throw std::runtime_error("cannot read wrk output:\n" + r.out);
    return w;
}

// nginx on a free loopback port serving `body` as /me.json, with its access log on like ours.
class Nginx {
  public:
    Nginx(const fs::path& dir, const std::string& body) : port_(free_port()) {
        fs::create_directories(dir / "html");
        fs::create_directories(dir / "logs");
        std::ofstream(dir / "html" / "me.json") << body;
        std::ofstream conf(dir / "nginx.conf");
        // Started as root, nginx would switch its workers to "nobody", who cannot read a private
        // scratch directory; they keep the invoking user instead.
        if (geteuid() == 0) conf << "user root;\n";
        conf << "worker_processes auto;\n"
             << "pid " << (dir / "nginx.pid").string() << ";\n"
             << "error_log " << (dir / "logs" / "error.log").string() << " warn;\n"
             << "events { worker_connections 1024; }\n"
             << "http {\n"
             << "  access_log " << (dir / "logs" / "access.log").string()
             << " combined buffer=64k;\n"
             << "  client_body_temp_path " << (dir / "tmp").string() << ";\n"
             << "  default_type application/json;\n"
             << "  keepalive_requests 1000000;\n"
             << "  server {\n"
             << "    listen 127.0.0.1:" << port_ << ";\n"
             << "    root " << (dir / "html").string() << ";\n"
             << "  }\n"
             << "}\n";
        conf.close();
        process_ = std::make_unique<ChildProcess>(
            std::vector<std::string>{
                installed({"/usr/sbin/nginx", "/usr/bin/nginx"}, "nginx-light"), "-p", dir.string(),
                "-c", (dir / "nginx.conf").string(), "-g", "daemon off;"},
            (dir / "logs" / "stdout.log").string());
        HttpClient client(url_base());
        for (int i = 0; i < 100; ++i) {
            try {
                if (client.send("GET", "/me.json", std::nullopt, {}).status == 200) return;
            } catch (const std::runtime_error&) {
                // Not listening yet.
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        throw std::runtime_error("nginx did not start; see " + (dir / "logs").string());
    }
    ~Nginx() { process_->stop(std::chrono::seconds(5)); }
    std::string url_base() const { return "http://127.0.0.1:" + std::to_string(port_); }

  private:
    int port_;
    std::unique_ptr<ChildProcess> process_;
};

}  // namespace

int main() {
    try {
        const int repeats = std::max(1, std::stoi(env_or("BENCH_REPEATS", "3")));
        const fs::path scratch =
            env_or("BENCH_SCRATCH", fs::temp_directory_path() / "squawk-bench");
        const std::string out_path = env_or("BENCH_OUT", "request_path_bench.json");

        StackOptions options;
        options.start_worker = false;
        options.start_scheduler = false;
        options.api_threads = std::stoi(env_or("BENCH_API_THREADS", "4"));
        options.mysql_pool_size = options.api_threads + 1;
        Stack stack(options);
        // A custom limit far above the load: the limiter runs on every request, refusing none.
        const auto created =
            stack.ctl({"key", "create", "--workspace", std::to_string(stack.tenant().workspace_id),
                       "--type", "test", "--scopes", "all", "--rate-limit", "2000000000"});
        if (created.exit_code != 0) throw std::runtime_error("key create failed: " + created.err);
        const std::string key = created.out.substr(0, created.out.find('\n'));
        const auto sample = stack.request("GET", "/v1/me", nullptr, key);
        if (sample.status != 200) throw std::runtime_error("GET /v1/me failed: " + sample.body);

        Nginx nginx(scratch / "nginx", sample.body);
        const std::string squawk_url = stack.base_url() + "/v1/me";
        const std::string nginx_url = nginx.url_base() + "/me.json";
        const std::vector<std::string> auth = {"Authorization: Bearer " + key};

        nlohmann::json squawk_rps = nlohmann::json::array(), nginx_rps = nlohmann::json::array();
        nlohmann::json squawk_p99 = nlohmann::json::array(), nginx_p99 = nlohmann::json::array();
        long long non_2xx = 0;
        run_wrk(squawk_url, auth);  // warm-up: connections, prepared statements, caches
        for (int i = 0; i < repeats; ++i) {
            const auto s = run_wrk(squawk_url, auth);
            const auto n = run_wrk(nginx_url, {});
            squawk_rps.push_back(s.requests_per_second);
            squawk_p99.push_back(s.p99_ms);
            nginx_rps.push_back(n.requests_per_second);
            nginx_p99.push_back(n.p99_ms);
            non_2xx += s.non_2xx + n.non_2xx;
            std::cerr << "run " << i + 1 << ": squawk " << s.requests_per_second << " req/s p99 "
                      << s.p99_ms << " ms; nginx " << n.requests_per_second << " req/s p99 "
                      << n.p99_ms << " ms\n";
        }
        // The request log is written in the background; give it a moment before counting.
        std::this_thread::sleep_for(std::chrono::seconds(2));
        const long long logged = stack.count("SELECT COUNT(*) FROM request_log");

        const std::string load = std::to_string(kConnections) + " connections, wrk -t2, " +
                                 std::to_string(kSeconds) + " s per run";
        const nlohmann::json report = {
            {"results",
             {{{"name", "GET /v1/me, test key, whole request path (" + load + ")"},
               {"unit", "requests/s"},
               {"better", "higher"},
               {"squawk", squawk_rps},
               {"peer", {{"name", "nginx static JSON file, " + load}, {"values", nginx_rps}}},
               {"target", "ratio >= 0.5"}},
              {{"name", "GET /v1/me p99 latency (" + load + ")"},
               {"unit", "ms"},
               {"better", "lower"},
               {"squawk", squawk_p99},
               {"peer", {{"name", "nginx static JSON file, " + load}, {"values", nginx_p99}}},
               {"target", "squawk < 10"}}}},
            {"notes",
             {"non-2xx answers across all runs: " + std::to_string(non_2xx),
              "request_log rows written during the runs: " + std::to_string(logged),
              "squawk-api runs " + std::to_string(options.api_threads) +
                  " reactor threads (BENCH_API_THREADS) and a MySQL pool of " +
                  std::to_string(options.mysql_pool_size) +
                  " on the same cores as wrk, nginx, MariaDB and Redis"}}};
        std::ofstream(out_path) << report.dump(2) << '\n';
        std::cout << report.dump(2) << '\n';
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "bench_request_path: " << e.what() << '\n';
        return 1;
    }
}
