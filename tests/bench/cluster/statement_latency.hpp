// What single statements cost on one connection with nothing else running: a one-row commit and a
// primary-key read, timed kProbes times each, on a Galera node or on the single node.
#pragma once

#include "common/core/db/mysql_pool.hpp"

namespace squawk::bench::cluster {

inline constexpr int kProbes = 500;

struct Timing {
    double mean_ms = 0;
    double p99_ms = 0;
};

// One-row autocommit INSERTs into a scratch table: on a Galera node each waits until its writeset
// is replicated to the group and certified.
Timing commit_ms(db::MysqlPool& pool);
// Primary-key reads of jobs: with wsrep_sync_wait = 1, as the daemons read, a Galera node first
// asks the group how far it must catch up.
Timing read_ms(db::MysqlPool& pool);

}  // namespace squawk::bench::cluster
