// What the daemons run with on both sides of the comparison, so that only the database differs:
// the shared environment, the cluster's configuration file and the single-node stack's options.
#pragma once

#include "tests/support/stack.hpp"

#include <string>

namespace squawk::bench::cluster {

inline constexpr int kApiThreads = 2;
inline constexpr int kMysqlPoolSize = 8;

// Stack writes its own file, so what it has no option for goes through the environment, which
// overrides every daemon's file, the cluster's included.
void share_daemon_settings();

// The rest, as Stack writes it from single_node_options(); cluster.sh adds MySQL, Redis, ports,
// media and the secret key.
std::string cluster_config();
testing::StackOptions single_node_options();

}  // namespace squawk::bench::cluster
