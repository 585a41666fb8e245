// Sets SQUAWK_* settings for the daemons a Stack starts (they inherit the environment) and removes
// them again: the stack writes some sections itself ([api], [media]), so its extra_config cannot
// add keys to them.
#pragma once

#include <cstdlib>
#include <map>
#include <string>
#include <utility>

namespace squawk::testing {

class SettingsEnv {
  public:
    explicit SettingsEnv(std::map<std::string, std::string> values) : values_(std::move(values)) {
        for (const auto& [name, value] : values_) setenv(name.c_str(), value.c_str(), 1);
    }
    ~SettingsEnv() {
        for (const auto& [name, value] : values_) unsetenv(name.c_str());
    }
    SettingsEnv(const SettingsEnv&) = delete;
    SettingsEnv& operator=(const SettingsEnv&) = delete;

  private:
    std::map<std::string, std::string> values_;
};

}  // namespace squawk::testing
