// The speech seam: what the text-to-speech job asks of whichever engine renders speech, and the
// request limits the API promises (spec: POST /audio/text-to-speech) whatever the engine.
#pragma once

#include "common/domain/generation/modality.hpp"
#include "common/domain/generation/provider_calls.hpp"

#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace squawk::generation {

inline constexpr std::string_view kDefaultVoice = "en";
inline constexpr int kDefaultWordsPerMinute = 175;
inline constexpr int kMinWordsPerMinute = 80;
inline constexpr int kMaxWordsPerMinute = 450;

struct SpeechRequest {
    std::string text;
    std::string voice{kDefaultVoice};
    int words_per_minute = kDefaultWordsPerMinute;
};

// What the provider wrote.
struct SynthesizedSpeech {
    double duration_seconds = 0;
};

class SpeechProvider {
  public:
    static constexpr Modality kModality = Modality::speech;

    virtual ~SpeechProvider() = default;

    // The voice names it offers; the API accepts only these.
    virtual std::span<const std::string_view> voices() const = 0;

    // Writes `request` spoken as a RIFF/WAVE file at `output`, on a fiber: blocking work goes
    // through `calls`. Throws ProviderError, or ProviderStopped once calls.stop() turns true.
    virtual SynthesizedSpeech synthesize(const SpeechRequest& request,
                                         const std::filesystem::path& output,
                                         ProviderCalls& calls) const = 0;
};

}  // namespace squawk::generation
