// GET /v1/jobs/{id} through HAProxy against straight to one API (job_polling.hpp).
#include "tests/bench/cluster/job_polling.hpp"

#include "tests/bench/support/bench.hpp"
#include "tests/support/json_api.hpp"
#include "tests/support/stack.hpp"

#include <chrono>
#include <map>
#include <stdexcept>

using namespace std::chrono_literals;

namespace squawk::bench::cluster {
namespace {

constexpr int kHttpSeconds = 10;

// A completed job's id on the cluster, to poll.
std::string completed_job(testing::LoopbackCluster& cluster, const std::string& key) {
    testing::JsonClient api(cluster.base_url());
    const auto accepted =
        api.request("POST", "/v1/jobs/ping", nlohmann::json{{"sleep_ms", 0}}, key);
    if (accepted.status != 202) throw std::runtime_error("POST /v1/jobs/ping: " + accepted.body);
    const std::string id = accepted.json["data"].value("job_id", "");
    const bool done = testing::Stack::wait_until(
        [&] {
            const auto polled = api.request("GET", "/v1/jobs/" + id, nullptr, key);
            return polled.status == 200 && polled.json["data"].value("status", "") == "completed";
        },
        30s, 100ms);
    if (!done) throw std::runtime_error("ping job " + id + " did not complete");
    return id;
}

}  // namespace

JobPolling compare_job_polling(int round, testing::LoopbackCluster& cluster,
                               const std::string& key) {
    const std::string path = "/v1/jobs/" + completed_job(cluster, key);
    const std::map<std::string, std::string> auth = {{"Authorization", "Bearer " + key}};
    const std::string through_haproxy = cluster.base_url() + path;
    const std::string direct = cluster.api_url(1) + path;
    // Warm-up: connections, and each API's cache of finished jobs.
    run_wrk(through_haproxy, kConnections, 2, auth);
    run_wrk(direct, kConnections, 2, auth);
    JobPolling result;
    bench::in_turn(
        round,
        [&] {
            result.through_haproxy = run_wrk(through_haproxy, kConnections, kHttpSeconds, auth);
        },
        [&] { result.direct = run_wrk(direct, kConnections, kHttpSeconds, auth); });
    return result;
}

}  // namespace squawk::bench::cluster
