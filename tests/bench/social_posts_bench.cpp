// POST /v1/social/posts with a test key at 64 connections (issue 4): validation, account
// resolution, the locked duplicate check, the post, target and publish-job rows in one
// transaction and the enqueue, every request with new content. No peer is named for it.
#include "tests/bench/support/bench.hpp"
#include "tests/support/fake_platforms.hpp"
#include "tests/support/social_fixtures.hpp"
#include "tests/support/stack.hpp"

#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <thread>
#include <vector>

using namespace squawk;
using namespace squawk::testing;

namespace {

constexpr int kConnections = 64;
constexpr int kSeconds = 10;

// Each wrk thread numbers its requests; `run` keeps rounds apart, so no content repeats and the
// duplicate guard refuses nothing.
std::string write_script(const std::string& run) {
    const std::string path = bench::scratch_dir() + "/social_posts_" + run + ".lua";
    std::ofstream(path) << "local threads = 0\n"
                           "function setup(thread)\n"
                           "  threads = threads + 1\n"
                           "  thread:set(\"tid\", threads)\n"
                           "end\n"
                           "wrk.method = \"POST\"\n"
                           "wrk.headers[\"Content-Type\"] = \"application/json\"\n"
                           "local n = 0\n"
                           "request = function()\n"
                           "  n = n + 1\n"
                           "  local body = '{\"content\":\"Bench post "
                        << run
                        << " ' .. tostring(tid) .. ' ' .. n .. '\",\"platforms\":[\"telegram\"]}'\n"
                           "  return wrk.format(nil, nil, nil, body)\n"
                           "end\n";
    return path;
}

}  // namespace

int main() {
    try {
        FakePlatforms fake;
        StackOptions options;
        options.start_worker = false;
        options.start_scheduler = false;
        options.extra_config = fake.config();
        bench::use_api_threads(options);
        Stack stack(options);
        const std::string key = bench::unlimited_test_key(stack);
        connect_telegram_channel(stack, fake, key, -1001000009001LL);

        const std::string url = stack.base_url() + "/v1/social/posts";
        const std::map<std::string, std::string> auth = {{"Authorization", "Bearer " + key}};
        const std::string load = std::to_string(kConnections) + " connections";
        bench::Series rps{"POST /v1/social/posts, test key, new content each, " + load,
                          "requests/s",
                          true,
                          {},
                          "",
                          {},
                          "reported (no reference named)"};
        bench::Series p99{"POST /v1/social/posts p99, " + load, "ms", false, {}, "", {},
                          "reported (no reference named)"};
        bench::Series cpu{"POST /v1/social/posts: CPU per post of squawk-api and MariaDB, " + load,
                          "µs",
                          false,
                          {},
                          "",
                          {},
                          "-"};
        std::vector<std::string> splits;
        long long errors = 0;
        bench::run_wrk(url, kConnections, 2, auth, write_script("warm"));
        for (int round = 0; round < bench::repeats(); ++round) {
            const auto served = bench::run_wrk_on_stack(stack, url, kConnections, kSeconds, auth,
                                                        write_script("r" + std::to_string(round)));
            const auto& r = served.wrk;
            rps.squawk.push_back(r.requests_per_second);
            p99.squawk.push_back(r.p99_ms);
            cpu.squawk.push_back(served.api_us_per_request + served.database_us_per_request);
            errors += r.errors;
            std::ostringstream split;
            split << std::fixed << std::setprecision(1) << "round " << round + 1 << ": squawk-api "
                  << served.api_us_per_request << " µs and " << served.api_switches_per_request
                  << " context switches, MariaDB " << served.database_us_per_request << " µs";
            splits.push_back(split.str());
            std::cerr << "social posts round " << round + 1 << ": " << r.requests_per_second
                      << " req/s, p99 " << r.p99_ms << " ms; per post " << splits.back() << "\n";
        }
        bench::Report report;
        report.add(rps);
        report.add(p99);
        report.add(cpu);
        for (const auto& line : splits) report.note("per post, " + line);
        report.note("errors and non-2xx answers across all runs: " + std::to_string(errors));
        // Requests wrk abandoned at the end of a round may still commit: let them, then count
        // posts and jobs one after the other.
        std::this_thread::sleep_for(std::chrono::seconds(2));
        const auto stored = stack.count("SELECT COUNT(*) FROM social_posts");
        const auto jobs = stack.count("SELECT COUNT(*) FROM jobs WHERE type = 'social.publish'");
        report.note("posts stored: " + std::to_string(stored) +
                    ", publish jobs: " + std::to_string(jobs));
        report.note("squawk-api with " + std::to_string(options.api_threads) +
                    " reactor threads (BENCH_API_THREADS), no workers, on the same 2 cores as "
                    "wrk, MariaDB and Redis; one workspace, every post new content (the "
                    "duplicate guard locks only identical content)");
        report.write();
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "social posts bench failed: " << e.what() << '\n';
        return 1;
    }
}
