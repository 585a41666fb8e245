// Offline English speech-to-text with PocketSphinx: ffmpeg turns any audio or video file into the
// 16 kHz mono WAV the recogniser expects, then pocketsphinx_continuous prints words with times.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/domain/generation/transcription_provider.hpp"
#include "common/extensions/providers/pocketsphinx/pocketsphinx_settings.hpp"

#include <memory>

namespace squawk::providers::pocketsphinx {

// What Transcript::model says, and the only model a request may name.
inline constexpr std::string_view kModel = "pocketsphinx-en-us";

class PocketsphinxProvider final : public generation::TranscriptionProvider {
  public:
    explicit PocketsphinxProvider(config::PocketsphinxSettings settings)
        : settings_(std::move(settings)) {}

    std::vector<std::string> languages() const override;
    generation::Transcript transcribe(const std::filesystem::path& input,
                                      const generation::TranscriptionRequest& request,
                                      generation::ProviderCalls& calls) const override;

  private:
    config::PocketsphinxSettings settings_;
};

// The registry's factory (common/extensions/providers/registered.cpp).
std::unique_ptr<generation::TranscriptionProvider> make_transcription_provider(
    const config::Config& config);

}  // namespace squawk::providers::pocketsphinx
