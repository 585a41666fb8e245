// Word-timed transcripts from an OpenAI-style service (POST {base_url}/audio/transcriptions, a
// multipart upload asking verbose_json with word timestamps), for speech-to-text and captions.
#pragma once

#include "common/domain/generation/transcription_provider.hpp"
#include "common/extensions/providers/openai/openai_settings.hpp"

namespace squawk::providers::openai {

class OpenAiTranscriptionProvider final : public generation::TranscriptionProvider {
  public:
    explicit OpenAiTranscriptionProvider(config::OpenAiSettings settings)
        : settings_(std::move(settings)) {}

    std::vector<std::string> languages() const override;
    generation::Transcript transcribe(const std::filesystem::path& input,
                                      const generation::TranscriptionRequest& request,
                                      generation::ProviderCalls& calls) const override;

  private:
    config::OpenAiSettings settings_;
};

}  // namespace squawk::providers::openai
