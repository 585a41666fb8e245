// What every benchmark program shares: its settings from `make bench` (repeats, scratch folder,
// output file), the result file the driver merges, and the peers it runs beside Squawk (npm
// packages, nginx, wrk).
#pragma once

#include "tests/support/stack.hpp"

#include <nlohmann/json.hpp>

#include <sys/types.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace squawk::bench {

// BENCH_REPEATS (default 3): how many interleaved rounds of Squawk and its peer.
int repeats();
// `first` then `second` in even rounds, `second` then `first` in odd ones: two sides of a
// comparison take turns going first, so neither always runs on a warmer machine.
void in_turn(int round, const std::function<void()>& first, const std::function<void()>& second);
// BENCH_API_THREADS, by default the reactor threads squawk-api ships with, set on `options` with
// the MySQL connections they need (one more than the threads).
void use_api_threads(testing::StackOptions& options);
// BENCH_SCRATCH: a folder for peers (npm installs, nginx files); never inside the source tree.
std::string scratch_dir();

// One measured quantity, Squawk's values beside the peer's, as the driver's table shows it.
struct Series {
    std::string name;
    std::string unit;
    bool higher_is_better = true;
    std::vector<double> squawk;
    std::string peer_name;  // empty when the issue names no peer
    std::vector<double> peer;
    std::string target;
};

// Collects series and notes and writes them to BENCH_OUT as {"results": [...], "notes": [...]}.
class Report {
  public:
    void add(const Series& series);
    void note(const std::string& text);
    void write() const;

  private:
    nlohmann::json results_ = nlohmann::json::array();
    nlohmann::json notes_ = nlohmann::json::array();
};

// Installs npm packages into the scratch folder once; later runs reuse them.
void npm_install(const std::vector<std::string>& packages);
// Runs `node SCRIPT args...` from tests/bench/peers with the scratch node_modules; returns the
// JSON object the script prints as its last line of output.
nlohmann::json run_node_peer(const std::string& script, const std::vector<std::string>& args);

struct WrkResult {
    double requests_per_second = 0;
    double p50_ms = 0;
    double p99_ms = 0;
    long long errors = 0;  // socket errors plus non-2xx answers
};

// wrk with `connections` connections over 2 threads for `seconds`, with --latency; `lua_script`
// (a file path) shapes each request when set.
WrkResult run_wrk(const std::string& url, int connections, int seconds,
                  const std::map<std::string, std::string>& headers = {},
                  const std::string& lua_script = {});

// nginx (two workers, access log on) on a free loopback port for as long as the object lives,
// its one server block serving html_dir() with `server_directives` added.
class NginxServer {
  public:
    explicit NginxServer(const std::string& server_directives = {});
    ~NginxServer();
    NginxServer(const NginxServer&) = delete;
    NginxServer& operator=(const NginxServer&) = delete;
    std::string base_url() const;
    std::string html_dir() const { return dir_ + "/html"; }
    pid_t pid() const { return pid_; }

  private:
    std::string dir_;
    int port_ = 0;
    pid_t pid_ = -1;
};

// nginx serving one static JSON file.
class StaticJsonServer {
  public:
    explicit StaticJsonServer(const std::string& json_body);
    std::string url() const { return nginx_.base_url() + "/data.json"; }

  private:
    NginxServer nginx_;
};

// The peak resident set (VmHWM) of a process, in MiB.
double peak_rss_mib(pid_t pid);
// The CPU time a process's live threads have run, in seconds, to the nanosecond (schedstat):
// fine enough to split a sub-second round between the processes that shared the cores.
double process_cpu_seconds(pid_t pid);
// Raises a process that stands for another machine (a fake platform) to nice -10 on every
// thread, so that on the shared cores it answers as promptly as a remote service would instead of
// queueing behind the processes under test; false where the system does not permit it.
bool favour(pid_t pid);
// The database server's process, found through its pid file.
pid_t database_pid();

// wrk against a route of the stack's squawk-api, with what serving the load cost squawk-api and
// MariaDB (which writes each request's log row) per request: their CPU over wrk's requests, which
// the machine's other load sways less than the rate, so a change to the path shows here first.
// Also counts squawk-api's context switches per request: each costs CPU in the kernel that no
// function of its own shows.
struct ServedLoad {
    WrkResult wrk;
    double api_us_per_request = 0;
    double database_us_per_request = 0;
    double api_switches_per_request = 0;
};
ServedLoad run_wrk_on_stack(testing::Stack& stack, const std::string& url, int connections,
                            int seconds, const std::map<std::string, std::string>& headers = {},
                            const std::string& lua_script = {});

// A test key with every scope on the stack's workspace and a custom rate limit far above any
// load: the limiter runs on every request and refuses none.
std::string unlimited_test_key(testing::Stack& stack);

// Whether `select` (a SELECT of matching rows, without LIMIT) finds one: it stops at the first
// entry of an index, however many rows match, so polling it while a run goes on costs the run
// next to nothing, where a COUNT(*) of the finished rows walks more of the index each time.
bool finds_a_row(testing::Stack& stack, const std::string& select);

// Waits (at most a minute) until the database server is idle. InnoDB purges the old row versions
// of a round's updates and deletes in the background for a second or more after it; every side
// of a comparison, Squawk or peer, starts after that, so none pays for another's leftovers.
void wait_for_quiet_database();

double median(std::vector<double> values);
// The p-th percentile (0..100) by nearest rank.
double percentile(std::vector<double> values, double p);

}  // namespace squawk::bench
