// Each generation provider's own section, [providers.<name>]: a provider adds its settings member
// here and its rows in provider_settings.cpp.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/extensions/providers/espeak/espeak_settings.hpp"

namespace squawk::config {

struct ProviderSettings {
    EspeakSettings espeak;
};

SectionSchema<ProviderSettings> providers_schema();

}  // namespace squawk::config
