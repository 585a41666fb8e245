// The espeak-ng speech provider: its program and how long one synthesis may take. Section
// [providers.espeak].
#pragma once

#include "common/core/config/config_fwd.hpp"

#include <string>

namespace squawk::config {

struct EspeakSettings {
    std::string binary = "espeak-ng";
    int timeout_seconds = 60;
};

SectionSchema<EspeakSettings> espeak_schema();

}  // namespace squawk::config
