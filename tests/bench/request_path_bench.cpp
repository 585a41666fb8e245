// The whole request path under load: GET /v1/me with a test key (authentication, rate limit,
// request log, envelope) at 64 connections with wrk, interleaved with nginx serving the same
// JSON as a static file on the same machine, and with bare Pistache serving it on as many
// threads: the ceiling the HTTP framework sets on any route of squawk-api.
#include "tests/bench/support/bare_pistache.hpp"
#include "tests/bench/support/bench.hpp"
#include "tests/support/stack.hpp"

#include <cstdlib>
#include <iostream>
#include <thread>

using namespace squawk;
using namespace squawk::testing;

namespace {

constexpr int kConnections = 64;
constexpr int kSeconds = 10;

}  // namespace

int main() {
    try {
        StackOptions options;
        options.start_worker = false;
        options.start_scheduler = false;
        bench::use_api_threads(options);
        Stack stack(options);
        const std::string key = bench::unlimited_test_key(stack);
        const auto sample = stack.request("GET", "/v1/me", nullptr, key);
        if (sample.status != 200) throw std::runtime_error("GET /v1/me failed: " + sample.body);

        bench::StaticJsonServer nginx(sample.body);
        bench::BarePistacheServer bare(sample.body, options.api_threads);
        const std::string url = stack.base_url() + "/v1/me";
        const std::map<std::string, std::string> auth = {{"Authorization", "Bearer " + key}};
        const std::string load = std::to_string(kConnections) + " connections";
        bench::Series rps{"GET /v1/me, test key, whole request path, " + load,
                          "requests/s",
                          true,
                          {},
                          "nginx static JSON file",
                          {},
                          "ratio >= 0.5"};
        bench::Series p99{"GET /v1/me p99, " + load, "ms", false,    {},
                          "nginx static JSON file",  {},   "< 10 ms"};
        bench::Series cpu{"GET /v1/me: CPU per request of squawk-api and MariaDB, " + load,
                          "µs",
                          false,
                          {},
                          "",
                          {},
                          "-"};
        bench::Series ceiling{"bare Pistache, same body and threads, no handler work, " + load,
                              "requests/s",
                              true,
                              {},
                              "nginx static JSON file",
                              {},
                              ""};
        long long errors = 0;
        bench::run_wrk(url, kConnections, 2, auth);  // warm-up: connections, statements, caches
        for (int round = 0; round < bench::repeats(); ++round) {
            const auto served = bench::run_wrk_on_stack(stack, url, kConnections, kSeconds, auth);
            const auto& ours = served.wrk;
            const double api_us = served.api_us_per_request;
            const double database_us = served.database_us_per_request;
            cpu.squawk.push_back(api_us + database_us);
            const auto theirs = bench::run_wrk(nginx.url(), kConnections, kSeconds);
            const auto framework = bench::run_wrk(bare.url(), kConnections, kSeconds);
            rps.squawk.push_back(ours.requests_per_second);
            p99.squawk.push_back(ours.p99_ms);
            rps.peer.push_back(theirs.requests_per_second);
            p99.peer.push_back(theirs.p99_ms);
            ceiling.squawk.push_back(framework.requests_per_second);
            ceiling.peer.push_back(theirs.requests_per_second);
            errors += ours.errors + theirs.errors + framework.errors;
            std::cerr << "request path round " << round + 1 << ": squawk "
                      << ours.requests_per_second << " req/s, nginx " << theirs.requests_per_second
                      << " req/s, bare Pistache " << framework.requests_per_second
                      << " req/s; CPU per request: squawk-api " << api_us << " µs, MariaDB "
                      << database_us << " µs\n";
        }
        // The request log is written in the background; give it a moment before counting.
        std::this_thread::sleep_for(std::chrono::seconds(2));
        bench::Report report;
        report.add(rps);
        report.add(p99);
        report.add(cpu);
        report.add(ceiling);
        report.note("errors and non-2xx answers across all runs: " + std::to_string(errors));
        report.note("request_log rows written during the runs: " +
                    std::to_string(stack.count("SELECT COUNT(*) FROM request_log")));
        report.note("squawk-api with " + std::to_string(options.api_threads) +
                    " reactor threads (BENCH_API_THREADS) on the same 2 cores as wrk, nginx, "
                    "MariaDB and Redis");
        report.write();
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "request path bench failed: " << e.what() << '\n';
        return 1;
    }
}
