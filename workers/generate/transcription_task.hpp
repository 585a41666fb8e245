// `audio.speech_to_text`: transcribes a media file of the workspace with the configured
// transcription provider and records the text and word times as the job's creation.
#pragma once

#include "workers/tasks/task_handler.hpp"

namespace squawk::workers::generate {

class TranscriptionTask final : public TaskHandler {
  public:
    nlohmann::json run(const jobs::ClaimedJob& job, TaskContext& context) override;
};

}  // namespace squawk::workers::generate
