// The registry's factories for the OpenAI-style providers (common/extensions/providers/
// registered.cpp): each builds its provider from [providers.openai].
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/domain/generation/image_provider.hpp"
#include "common/domain/generation/speech_provider.hpp"
#include "common/domain/generation/text_provider.hpp"
#include "common/domain/generation/transcription_provider.hpp"

#include <memory>

namespace squawk::providers::openai {

std::unique_ptr<generation::TextProvider> make_text_provider(const config::Config& config);
std::unique_ptr<generation::ImageProvider> make_image_provider(const config::Config& config);
std::unique_ptr<generation::TranscriptionProvider> make_transcription_provider(
    const config::Config& config);
std::unique_ptr<generation::SpeechProvider> make_speech_provider(const config::Config& config);

}  // namespace squawk::providers::openai
