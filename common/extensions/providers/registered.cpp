#include "common/extensions/providers/registered.hpp"

#include "common/domain/generation/image_provider.hpp"
#include "common/domain/generation/speech_provider.hpp"
#include "common/domain/generation/text_provider.hpp"
#include "common/domain/generation/transcription_provider.hpp"
#include "common/extensions/providers/cards/cards_provider.hpp"
#include "common/extensions/providers/espeak/espeak_provider.hpp"
#include "common/extensions/providers/openai/openai_factories.hpp"
#include "common/extensions/providers/pocketsphinx/pocketsphinx_provider.hpp"

namespace squawk::providers {

const generation::ProviderRegistry& registered() {
    static const generation::ProviderRegistry registry = [] {
        generation::ProviderRegistry r;
        r.add<generation::SpeechProvider>("espeak", espeak::make_speech_provider);
        r.add<generation::SpeechProvider>("openai", openai::make_speech_provider);
        r.add<generation::ImageProvider>("cards", cards::make_image_provider);
        r.add<generation::TextProvider>("openai", openai::make_text_provider);
        r.add<generation::ImageProvider>("openai", openai::make_image_provider);
        r.add<generation::TranscriptionProvider>("openai", openai::make_transcription_provider);
        r.add<generation::TranscriptionProvider>("pocketsphinx",
                                                 pocketsphinx::make_transcription_provider);
        return r;
    }();
    return registry;
}

}  // namespace squawk::providers
