// How much the daemons log. Section [log]; the rows are in log_settings.cpp.
#pragma once

#include "common/core/config/config_fwd.hpp"

#include <string>

namespace squawk::config {

struct LogSettings {
    std::string level = "info";
};

SectionSchema<LogSettings> log_schema();

}  // namespace squawk::config
