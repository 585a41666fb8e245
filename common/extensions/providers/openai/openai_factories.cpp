#include "common/extensions/providers/openai/openai_factories.hpp"

#include "common/core/config/config.hpp"
#include "common/extensions/providers/openai/openai_image_provider.hpp"
#include "common/extensions/providers/openai/openai_speech_provider.hpp"
#include "common/extensions/providers/openai/openai_text_provider.hpp"
#include "common/extensions/providers/openai/openai_transcription_provider.hpp"

namespace squawk::providers::openai {

std::unique_ptr<generation::TextProvider> make_text_provider(const config::Config& config) {
    return std::make_unique<OpenAiTextProvider>(config.providers.openai);
}

std::unique_ptr<generation::ImageProvider> make_image_provider(const config::Config& config) {
    return std::make_unique<OpenAiImageProvider>(config.providers.openai);
}

std::unique_ptr<generation::TranscriptionProvider> make_transcription_provider(
    const config::Config& config) {
    return std::make_unique<OpenAiTranscriptionProvider>(config.providers.openai);
}

std::unique_ptr<generation::SpeechProvider> make_speech_provider(const config::Config& config) {
    return std::make_unique<OpenAiSpeechProvider>(config.providers.openai);
}

}  // namespace squawk::providers::openai
