// Speech from an OpenAI-style service (POST {base_url}/audio/speech asking for WAV), for text to
// speech and narration; the voices are the deployment's list in [providers.openai].
#pragma once

#include "common/domain/generation/speech_provider.hpp"
#include "common/extensions/providers/openai/openai_settings.hpp"

#include <vector>

namespace squawk::providers::openai {

// The longest input the service takes, in characters.
inline constexpr size_t kMaxSpeechInputChars = 4096;

class OpenAiSpeechProvider final : public generation::SpeechProvider {
  public:
    explicit OpenAiSpeechProvider(config::OpenAiSettings settings);

    std::span<const std::string_view> voices() const override;
    // The seam's default voice (generation::kDefaultVoice) speaks with the first configured one.
    generation::SynthesizedSpeech synthesize(const generation::SpeechRequest& request,
                                             const std::filesystem::path& output,
                                             generation::ProviderCalls& calls) const override;

  private:
    config::OpenAiSettings settings_;
    std::vector<std::string_view> voice_names_;  // views of settings_.speech_voices
};

}  // namespace squawk::providers::openai
