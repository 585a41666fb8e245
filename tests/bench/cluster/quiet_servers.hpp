// Waiting between runs until both database sides are idle, so that neither run pays for the
// other's leftovers.
#pragma once

#include "common/core/db/mysql_settings.hpp"

#include <vector>

namespace squawk::bench::cluster {

// Every Galera node done applying what it received (at most a minute), then both database sides
// purged and idle. `galera_nodes` name one node each.
void wait_for_quiet_servers(const std::vector<config::MysqlSettings>& galera_nodes);

}  // namespace squawk::bench::cluster
