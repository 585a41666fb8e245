// Which provider each generation modality uses. Section [generation].
#pragma once

#include "common/core/config/config_fwd.hpp"

#include <map>
#include <string>

namespace squawk::config {

// Keyed by modality ("speech"); every name is one of the providers compiled in.
struct GenerationSettings {
    std::map<std::string, std::string> default_provider{{"speech", "espeak"}};
};

// Defined beside the provider registry (common/extensions/providers/provider_settings.cpp), which
// knows the names a build offers.
SectionSchema<GenerationSettings> generation_schema();

}  // namespace squawk::config
