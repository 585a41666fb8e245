// The job throughput run, the same on either side: ping jobs posted through both APIs by
// closed-loop HTTP clients, timed until MySQL records the last completion.
#pragma once

#include "common/core/db/mysql_pool.hpp"

#include <functional>
#include <string>
#include <vector>

namespace squawk::bench::cluster {

inline constexpr int kJobs = 5000;
inline constexpr int kClientThreads = 8;

// Where one round's jobs go: a fresh workspace, its key, both APIs and the database to count in.
struct JobPath {
    std::vector<std::string> api_urls;
    std::string key;
    long long workspace_id = 0;
    db::MysqlPool* db = nullptr;
};

struct Throughput {
    double accepted_per_second = 0;
    double completed_per_second = 0;
    double seconds = 0;
    double posting_seconds = 0;
    long long workers = 0;  // that completed at least one of the jobs
};

// kJobs pings from kClientThreads closed-loop clients, alternating between the APIs; timed from
// the first POST to the last completion MySQL recorded. `post_mortem` tells what went wrong when
// the jobs do not all complete.
Throughput run_pings(const JobPath& path, const std::function<std::string()>& post_mortem);

}  // namespace squawk::bench::cluster
