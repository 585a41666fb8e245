#include "common/extensions/providers/registered.hpp"

#include "common/domain/generation/speech_provider.hpp"
#include "common/extensions/providers/espeak/espeak_provider.hpp"

namespace squawk::providers {

const generation::ProviderRegistry& registered() {
    static const generation::ProviderRegistry registry = [] {
        generation::ProviderRegistry r;
        r.add<generation::SpeechProvider>("espeak", espeak::make_speech_provider);
        return r;
    }();
    return registry;
}

}  // namespace squawk::providers
