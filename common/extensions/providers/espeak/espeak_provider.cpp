#include "common/extensions/providers/espeak/espeak_provider.hpp"

#include "common/core/config/config.hpp"
#include "common/core/fs/work_files.hpp"
#include "common/core/process/subprocess.hpp"
#include "common/domain/generation/provider_error.hpp"
#include "common/domain/generation/wav_info.hpp"
#include "common/extensions/providers/espeak/espeak_voices.hpp"

#include <algorithm>
#include <cctype>

namespace squawk::providers::espeak {
namespace {

using generation::ProviderError;

// espeak-ng voice names: "en", "en-us", "en+f3", "mb/mb-en1". Anything else never reaches argv.
bool plausible_voice(const std::string& voice) {
    if (voice.empty() || voice.size() > 64 || voice.front() == '-') return false;
    return std::all_of(voice.begin(), voice.end(),
                       [](char c) {
                           return std::isalnum(static_cast<unsigned char>(c)) || c == '-' ||
                                  c == '_' || c == '+' || c == '/' || c == '.';
                       }) &&
           voice.find("..") == std::string::npos;
}

[[noreturn]] void fail(const process::SubprocessResult& r,
                       const generation::SpeechRequest& request) {
    if (r.stopped) throw generation::ProviderStopped();
    if (r.timed_out) throw ProviderError::retryable("espeak-ng did not finish in time");
    if (r.stderr_text.find("voice does not exist") != std::string::npos)
        throw ProviderError::permanent("unknown voice '" + request.voice + "'",
                                       {{"voice", request.voice}});
    throw ProviderError::retryable("espeak-ng exited with status " + std::to_string(r.exit_code) +
                                   ": " + r.stderr_text.substr(0, 500));
}

}  // namespace

std::span<const std::string_view> EspeakProvider::voices() const {
    return espeak::voices();
}

generation::SynthesizedSpeech EspeakProvider::synthesize(const generation::SpeechRequest& request,
                                                         const std::filesystem::path& output,
                                                         generation::ProviderCalls& calls) const {
    if (!plausible_voice(request.voice))
        throw ProviderError::permanent("voice is not a valid voice name", {{"field", "voice"}});
    process::SubprocessRequest spawn;
    spawn.argv = {settings_.binary,
                  "--stdin",
                  "-v",
                  request.voice,
                  "-s",
                  std::to_string(request.words_per_minute),
                  "-w",
                  output.string()};
    spawn.stdin_data = request.text;
    spawn.timeout = std::chrono::seconds(settings_.timeout_seconds);
    spawn.stop = &calls.stop();
    generation::SynthesizedSpeech speech;
    calls.blocking([&] {
        process::SubprocessResult result;
        try {
            result = process::run_subprocess(spawn);
        } catch (const process::SubprocessStartError& e) {
            throw ProviderError::retryable(e.what());
        }
        if (result.exit_code != 0) fail(result, request);
        const auto wav = generation::parse_wav(squawk::fs::read_file(output).value_or(""));
        if (!wav) throw ProviderError::retryable("espeak-ng did not produce a valid WAV file");
        speech.duration_seconds = wav->duration_seconds;
    });
    return speech;
}

std::unique_ptr<generation::SpeechProvider> make_speech_provider(const config::Config& config) {
    return std::make_unique<EspeakProvider>(config.providers.espeak);
}

}  // namespace squawk::providers::espeak
