// The one error configuration loading raises; daemons exit with code 2 on it.
#pragma once

#include <stdexcept>

namespace squawk::config {

// An unreadable file, an unknown key or a bad value.
class ConfigError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace squawk::config
