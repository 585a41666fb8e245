// Which provider each generation modality uses. Section [generation].
#pragma once

#include "common/core/config/config_fwd.hpp"

#include <map>
#include <string>

namespace squawk::config {

// Keyed by modality ("speech"); every name is one of the providers compiled in. A modality
// without an entry has no provider: text has none until an operator configures one, since the
// local providers write no prose.
struct GenerationSettings {
    std::map<std::string, std::string> default_provider{
        {"speech", "espeak"}, {"image", "cards"}, {"transcription", "pocketsphinx"}};
};

// Defined beside the provider registry (common/extensions/providers/provider_settings.cpp), which
// knows the names a build offers.
SectionSchema<GenerationSettings> generation_schema();

}  // namespace squawk::config
