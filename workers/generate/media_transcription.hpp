// Speech to text of a file of the media library with the configured transcription provider: what
// a transcript job records and what a short's captions are cut from.
#pragma once

#include "common/core/config/config.hpp"
#include "common/domain/generation/transcription_provider.hpp"
#include "workers/generate/job_provider_calls.hpp"

#include <filesystem>
#include <string>

namespace squawk::workers::generate {

struct MediaTranscript {
    generation::Transcript transcript;
    std::string provider;  // the configured provider's name
};

// Transcribes `file` (any audio or video ffmpeg reads); throws the task errors call_provider()
// maps the provider's to, TaskCancelled when the job is cancelled meanwhile.
MediaTranscript transcribe_file(const config::Config& config, const std::filesystem::path& file,
                                const generation::TranscriptionRequest& request,
                                JobProviderCalls& calls);

}  // namespace squawk::workers::generate
