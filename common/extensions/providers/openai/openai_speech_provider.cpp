#include "common/extensions/providers/openai/openai_speech_provider.hpp"

#include "common/domain/generation/provider_error.hpp"
#include "common/domain/generation/wav_info.hpp"
#include "common/extensions/providers/openai/openai_answers.hpp"
#include "common/extensions/providers/openai/openai_service.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

namespace squawk::providers::openai {
namespace {

using generation::ProviderError;

// OpenAI's speed 1.0 is about espeak's default rate, which the API's words per minute count from.
constexpr double kSlowestSpeed = 0.25;
constexpr double kFastestSpeed = 4.0;

void write_recording(const std::filesystem::path& output, const std::string& audio) {
    std::ofstream out(output, std::ios::binary | std::ios::trunc);
    out.write(audio.data(), static_cast<std::streamsize>(audio.size()));
    out.close();
    if (!out) throw ProviderError::retryable("cannot write " + output.string());
}

size_t character_count(std::string_view text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

}  // namespace

OpenAiSpeechProvider::OpenAiSpeechProvider(config::OpenAiSettings settings)
    : settings_(std::move(settings)) {
    voice_names_.assign(settings_.speech_voices.begin(), settings_.speech_voices.end());
}

std::span<const std::string_view> OpenAiSpeechProvider::voices() const {
    return voice_names_;
}

generation::SynthesizedSpeech OpenAiSpeechProvider::synthesize(
    const generation::SpeechRequest& request, const std::filesystem::path& output,
    generation::ProviderCalls& calls) const {
    std::string voice = request.voice;
    if (voice == generation::kDefaultVoice && !voice_names_.empty() &&
        std::find(voice_names_.begin(), voice_names_.end(), voice) == voice_names_.end())
        voice = settings_.speech_voices.front();
    if (std::find(voice_names_.begin(), voice_names_.end(), voice) == voice_names_.end())
        throw ProviderError::permanent("unknown voice '" + voice + "'",
                                       {{"field", "voice"}, {"voice", voice}});
    if (request.text.empty() || character_count(request.text) > kMaxSpeechInputChars)
        throw ProviderError::permanent("the text must have 1 to " +
                                           std::to_string(kMaxSpeechInputChars) +
                                           " characters for this provider",
                                       {{"field", "text"}});
    const std::string model = chosen_model(settings_.speech_models, "");
    nlohmann::json body{
        {"model", model}, {"input", request.text}, {"voice", voice}, {"response_format", "wav"}};
    if (request.words_per_minute != generation::kDefaultWordsPerMinute)
        body["speed"] = std::clamp(
            static_cast<double>(request.words_per_minute) / generation::kDefaultWordsPerMinute,
            kSlowestSpeed, kFastestSpeed);
    ServiceCall call{"/audio/speech", "application/json",
                     body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), ""};
    call.accept = "audio/wav";
    const http::Response response = send_service(settings_, std::move(call), calls);
    const std::string& audio = accepted_bytes(response);
    const auto wav = generation::parse_wav(audio);
    if (!wav || wav->duration_seconds <= 0)
        throw ProviderError::retryable("malformed answer from the provider: not a WAV recording");
    calls.blocking([&] { write_recording(output, audio); });
    return {wav->duration_seconds};
}

}  // namespace squawk::providers::openai
