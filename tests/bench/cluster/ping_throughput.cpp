// The job throughput run (ping_throughput.hpp).
#include "tests/bench/cluster/ping_throughput.hpp"

#include "tests/bench/cluster/elapsed_time.hpp"
#include "tests/support/http_client.hpp"
#include "tests/support/stack.hpp"

#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>

using namespace std::chrono_literals;

namespace squawk::bench::cluster {
namespace {

// Microseconds since the epoch, on the clock MySQL stamps finished_at with.
double unix_us_now() {
    return static_cast<double>(std::chrono::duration_cast<std::chrono::microseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count());
}

}  // namespace

Throughput run_pings(const JobPath& path, const std::function<std::string()>& post_mortem) {
    std::atomic<int> next{0};
    std::atomic<int> failures{0};
    std::mutex failure_mutex;
    std::string first_failure;
    const double first_post_us = unix_us_now();
    const auto started = std::chrono::steady_clock::now();
    std::vector<std::thread> clients;
    for (int t = 0; t < kClientThreads; ++t) {
        clients.emplace_back([&, t] {
            testing::HttpClient http(path.api_urls[t % path.api_urls.size()]);
            const testing::Headers headers = {{"Authorization", "Bearer " + path.key},
                                              {"Content-Type", "application/json"}};
            while (next++ < kJobs) {
                std::string problem;
                try {
                    const auto r = http.send("POST", "/v1/jobs/ping", "{\"sleep_ms\":0}", headers);
                    if (r.status != 202) problem = std::to_string(r.status) + " " + r.body;
                } catch (const std::exception& e) {
                    problem = e.what();
                }
                if (problem.empty()) continue;
                ++failures;
                std::lock_guard lock(failure_mutex);
                if (first_failure.empty()) first_failure = problem;
            }
        });
    }
    for (auto& c : clients) c.join();
    const double posting_seconds = seconds_since(started);
    if (failures > 0)
        throw std::runtime_error(std::to_string(failures.load()) +
                                 " ping submissions failed, the first: " + first_failure);

    const auto count = [&](const std::string& sql) {
        return path.db->run(
            [&](db::Session& s) { return s.query_one(sql, {path.workspace_id})->integer(0); });
    };
    // Polled slowly: each count competes with the run it watches; the end comes from the rows.
    if (!testing::Stack::wait_until(
            [&] {
                return count(
                           "SELECT COUNT(*) FROM jobs WHERE workspace_id = ? AND "
                           "status = 'completed'") == kJobs;
            },
            300s, 250ms))
        throw std::runtime_error("not every ping job completed\n" + post_mortem());
    const double last_finish_us = static_cast<double>(
        count("SELECT TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', MAX(finished_at)) "
              "FROM jobs WHERE workspace_id = ?"));
    Throughput result;
    result.seconds = (last_finish_us - first_post_us) / 1e6;
    result.posting_seconds = posting_seconds;
    result.workers = count("SELECT COUNT(DISTINCT worker_id) FROM jobs WHERE workspace_id = ?");
    result.accepted_per_second = kJobs / posting_seconds;
    result.completed_per_second = kJobs / result.seconds;
    return result;
}

}  // namespace squawk::bench::cluster
