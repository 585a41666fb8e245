#include "workers/generate/transcription_task.hpp"

#include "common/domain/generation/transcription_provider.hpp"
#include "common/domain/media/media_repository.hpp"
#include "workers/errors.hpp"
#include "workers/generate/created_files.hpp"
#include "workers/generate/input_media.hpp"
#include "workers/generate/job_provider_calls.hpp"
#include "workers/generate/media_transcription.hpp"

#include <filesystem>

namespace squawk::workers::generate {

nlohmann::json TranscriptionTask::run(const jobs::ClaimedJob& job, TaskContext& context) {
    const auto media_id = job.payload.value("media_id", std::string());
    generation::TranscriptionRequest request;
    request.language = job.payload.value("language", request.language);
    request.idempotency_key = job.public_id;
    const auto source = context.in_database([&](db::Session& s) {
        return media::MediaRepository::find(s, job.workspace_id, media_id);
    });
    if (!source || source->status != "ready")
        throw PermanentError("the media to transcribe no longer exists", {{"field", "media_id"}});

    const auto& config = context.config();
    context.report_progress(10, "transcribing");
    const auto heard = [&] {
        const auto source_file = input_file(context, job, *source, "media_id");
        JobProviderCalls calls(context);
        return transcribe_file(config, source_file.path(), request, calls);
    }();
    const auto& transcript = heard.transcript;

    nlohmann::json words = nlohmann::json::array();
    for (const auto& w : transcript.words)
        words.push_back({{"word", w.word}, {"start", w.start_seconds}, {"end", w.end_seconds}});
    const nlohmann::json output{
        {"text", transcript.text},     {"language", transcript.language},
        {"words", std::move(words)},   {"duration_seconds", transcript.duration_seconds},
        {"source_media_id", media_id}, {"provider", heard.provider},
        {"model", transcript.model}};
    const auto recorded = record_creation(context, job, output, {},
                                          billing::whole_seconds(transcript.duration_seconds));
    return {{"audio_id", recorded.public_id},
            {"text", transcript.text},
            {"language", transcript.language},
            {"word_count", transcript.words.size()},
            {"duration_seconds", transcript.duration_seconds}};
}

}  // namespace squawk::workers::generate
