// The operator got the command wrong (unknown scope, missing workspace, bad value): squawkctl
// answers these with exit code 2, like a bad configuration, so scripts can tell them from outages.
#pragma once

#include <stdexcept>

namespace squawk::ctl {

class UsageError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace squawk::ctl
