// The transcription seam: the words of a recording with their times, for speech-to-text jobs and
// the captions of shorts.
#pragma once

#include "common/domain/generation/modality.hpp"
#include "common/domain/generation/provider_calls.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace squawk::generation {

struct TranscribedWord {
    std::string word;
    double start_seconds = 0;
    double end_seconds = 0;
};

struct TranscriptionRequest {
    std::string language = "en";  // one of languages()
    std::string model;            // empty: the provider's default
    // Stable across retries of one job, for services that deduplicate on it.
    std::string idempotency_key;
};

struct Transcript {
    std::string text;  // the words joined by single spaces
    std::string language;
    std::vector<TranscribedWord> words;  // in time order
    double duration_seconds = 0;         // of the recording
    std::string model;
};

class TranscriptionProvider {
  public:
    static constexpr Modality kModality = Modality::transcription;

    virtual ~TranscriptionProvider() = default;

    virtual std::vector<std::string> languages() const = 0;

    // Transcribes `input`, any audio or video file ffmpeg reads. Throws ProviderError (permanent
    // when the file has no audio or cannot be decoded) or ProviderStopped.
    virtual Transcript transcribe(const std::filesystem::path& input,
                                  const TranscriptionRequest& request,
                                  ProviderCalls& calls) const = 0;
};

}  // namespace squawk::generation
