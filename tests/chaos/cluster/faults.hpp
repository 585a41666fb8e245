// The faults of the cluster run and how long the cluster took to get over each: a worker SIGKILLed
// every 2 s, an API SIGKILLed and restarted, the leading scheduler SIGKILLed, a Galera node stopped
// and rejoined, the Redis primary SIGKILLed for Sentinel to fail over.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"
#include "tests/chaos/cluster/submissions.hpp"
#include "tests/support/loopback_cluster.hpp"

#include <atomic>
#include <string>
#include <vector>

namespace squawk::chaos {

struct Recovery {
    std::string fault;
    std::string measure;  // what `seconds` is the time to
    double seconds = -1;  // -1: it did not happen within the limit
};

class Faults {
  public:
    Faults(testing::LoopbackCluster& cluster, db::MysqlPool& mysql)
        : cluster_(cluster), mysql_(mysql) {}

    // Kills worker-1 and worker-2 in turn every 2 s, restarting each at once, until `until` has
    // passed and `done` is set (submissions that run late still meet the kills).
    void kill_workers(Clock::time_point until, const std::atomic<bool>& done);
    // The other faults, one after the other, spread from `start` to `until`.
    void run_sequence(Clock::time_point start, Clock::time_point until);

    int worker_kills() const { return worker_kills_; }
    // For each worker kill, seconds until every job running at that moment had finished (the
    // killed worker's come back when their lease runs out), read from the jobs' finished_at.
    std::vector<double> worker_recoveries();
    const std::vector<Recovery>& recoveries() const { return recoveries_; }
    // Each fault of the sequence happened (a fault that could not be made fails the run).
    bool all_made() const { return made_ == 4; }
    const std::vector<std::string>& problems() const { return problems_; }

  private:
    void kill_api();
    void kill_leading_scheduler();
    void stop_galera_node();
    void kill_redis_primary();
    // Seconds from `since` until `predicate` holds (polled every 20 ms), or -1 past `limit`.
    static double until(const std::function<bool()>& predicate, std::chrono::seconds limit,
                        Clock::time_point since = Clock::now());
    long long completed_jobs();
    std::string leader_owner();
    void record(const std::string& fault, const std::string& measure, double seconds);

    testing::LoopbackCluster& cluster_;
    db::MysqlPool& mysql_;
    struct WorkerKill {
        time::TimePoint at;
        std::vector<long long> running_jobs;
    };

    int worker_kills_ = 0;
    std::vector<WorkerKill> worker_kill_log_;
    std::vector<Recovery> recoveries_;
    int made_ = 0;
    std::vector<std::string> problems_;
};

}  // namespace squawk::chaos
