#include "workers/generate/media_transcription.hpp"

#include "workers/generate/provider_call.hpp"

namespace squawk::workers::generate {

MediaTranscript transcribe_file(const config::Config& config, const std::filesystem::path& file,
                                const generation::TranscriptionRequest& request,
                                JobProviderCalls& calls) {
    const auto provider = configured<generation::TranscriptionProvider>(config);
    return {call_provider([&] { return provider.instance->transcribe(file, request, calls); }),
            provider.name};
}

}  // namespace squawk::workers::generate
