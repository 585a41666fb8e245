// Waiting between runs until both database sides are idle (quiet_servers.hpp).
#include "tests/bench/cluster/quiet_servers.hpp"

#include "common/core/db/mysql_pool.hpp"
#include "tests/bench/cluster/galera_counters.hpp"
#include "tests/bench/support/bench.hpp"
#include "tests/support/stack.hpp"

#include <chrono>
#include <stdexcept>

using namespace std::chrono_literals;

namespace squawk::bench::cluster {

void wait_for_quiet_servers(const std::vector<config::MysqlSettings>& galera_nodes) {
    const auto applied_everything = [&] {
        for (const auto& node : galera_nodes)
            if (counter(wsrep_status(node), "wsrep_local_recv_queue") > 0) return false;
        return true;
    };
    if (!testing::Stack::wait_until(applied_everything, 60s, 100ms))
        throw std::runtime_error("a Galera node still had writesets to apply after a minute");
    for (const auto& node : galera_nodes)
        db::MysqlPool(node).run(
            [](db::Session& s) { s.execute("SET GLOBAL innodb_max_purge_lag_wait = 0"); });
    wait_for_quiet_database();
}

}  // namespace squawk::bench::cluster
