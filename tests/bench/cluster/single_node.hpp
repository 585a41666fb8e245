// The single-node side of the comparison: Stack's API, worker and scheduler on one MariaDB node,
// and a second of each, as the cluster runs two.
#pragma once

#include "tests/support/process.hpp"
#include "tests/support/stack.hpp"

#include <string>

namespace squawk::bench::cluster {

// Members stop in reverse order, the extra daemons before the stack drops its database.
struct SingleNode {
    SingleNode();

    testing::Stack stack;
    std::string second_api;
    testing::ChildProcess second_worker;
    testing::ChildProcess second_scheduler;

    // A daemon gone mid-round would leave this side with fewer processes than the cluster.
    void check_running();
};

}  // namespace squawk::bench::cluster
