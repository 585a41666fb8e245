// `audio.text_to_speech`: speaks the payload's text with the configured speech provider into a WAV
// file in the object store and records it as the job's one media item, so a rerun replaces
// rather than adds.
#pragma once

#include "common/domain/generation/speech_provider.hpp"
#include "workers/tasks/task_handler.hpp"

#include <string>

namespace squawk::workers::generate {

// Checks the payload {text, voice, speed}; throws PermanentError naming the bad field.
generation::SpeechRequest parse_speech_request(const nlohmann::json& payload);

class TextToSpeechTask final : public TaskHandler {
  public:
    nlohmann::json run(const jobs::ClaimedJob& job, TaskContext& context) override;
};

}  // namespace squawk::workers::generate
