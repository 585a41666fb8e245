// Speech from espeak-ng, the offline engine: runs the program configured in [providers.espeak]
// with the text on stdin and has it write the WAV file itself.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/domain/generation/speech_provider.hpp"
#include "common/extensions/providers/espeak/espeak_settings.hpp"

#include <memory>

namespace squawk::providers::espeak {

class EspeakProvider final : public generation::SpeechProvider {
  public:
    explicit EspeakProvider(config::EspeakSettings settings) : settings_(std::move(settings)) {}

    std::span<const std::string_view> voices() const override;
    generation::SynthesizedSpeech synthesize(const generation::SpeechRequest& request,
                                             const std::filesystem::path& output,
                                             generation::ProviderCalls& calls) const override;

  private:
    config::EspeakSettings settings_;
};

// The registry's factory (common/extensions/providers/registered.cpp).
std::unique_ptr<generation::SpeechProvider> make_speech_provider(const config::Config& config);

}  // namespace squawk::providers::espeak
