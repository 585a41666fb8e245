// GET /v1/jobs/{id} on one completed job of the cluster under wrk, through HAProxy against
// straight to one API: what the load balancer in front of the APIs costs a polling client.
#pragma once

#include "tests/bench/support/bench.hpp"
#include "tests/support/loopback_cluster.hpp"

#include <string>

namespace squawk::bench::cluster {

inline constexpr int kConnections = 64;

struct JobPolling {
    WrkResult through_haproxy;
    WrkResult direct;  // to API 1
};

// Posts a ping job with `key`, waits for it to complete, warms both paths up, then polls it
// through each for the measured run; the two take turns going first from round to round.
JobPolling compare_job_polling(int round, testing::LoopbackCluster& cluster,
                               const std::string& key);

}  // namespace squawk::bench::cluster
