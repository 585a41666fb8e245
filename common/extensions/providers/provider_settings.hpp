// Each generation provider's own section, [providers.<name>]: a provider adds its settings member
// here and its rows in provider_settings.cpp.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/extensions/providers/cards/cards_settings.hpp"
#include "common/extensions/providers/espeak/espeak_settings.hpp"
#include "common/extensions/providers/openai/openai_settings.hpp"
#include "common/extensions/providers/pocketsphinx/pocketsphinx_settings.hpp"

namespace squawk::config {

struct ProviderSettings {
    EspeakSettings espeak;
    CardsSettings cards;
    OpenAiSettings openai;
    PocketsphinxSettings pocketsphinx;
};

SectionSchema<ProviderSettings> providers_schema();

}  // namespace squawk::config
