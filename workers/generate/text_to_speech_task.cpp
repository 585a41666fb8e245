#include "workers/generate/text_to_speech_task.hpp"

#include "common/core/config/config.hpp"
#include "common/core/log/logger.hpp"
#include "common/domain/media/media_repository.hpp"
#include "common/extensions/providers/registered.hpp"
#include "workers/errors.hpp"
#include "workers/generate/created_files.hpp"
#include "workers/generate/job_provider_calls.hpp"
#include "workers/generate/provider_call.hpp"

namespace squawk::workers::generate {
namespace {

constexpr size_t kMaxTextBytes = 100000;

}  // namespace

generation::SpeechRequest parse_speech_request(const nlohmann::json& payload) {
    generation::SpeechRequest request;
    if (!payload.is_object()) throw PermanentError("payload must be an object");
    const auto text = payload.find("text");
    if (text == payload.end() || !text->is_string() || text->get<std::string>().empty())
        throw PermanentError("text must be a non-empty string", {{"field", "text"}});
    request.text = text->get<std::string>();
    if (request.text.size() > kMaxTextBytes)
        throw PermanentError("text is too long", {{"field", "text"}});
    if (const auto voice = payload.find("voice"); voice != payload.end() && !voice->is_null()) {
        if (!voice->is_string())
            throw PermanentError("voice is not a valid voice name", {{"field", "voice"}});
        request.voice = voice->get<std::string>();
    }
    if (const auto speed = payload.find("speed"); speed != payload.end() && !speed->is_null()) {
        if (!speed->is_number() || speed->get<double>() < generation::kMinWordsPerMinute ||
            speed->get<double>() > generation::kMaxWordsPerMinute)
            throw PermanentError("speed must be between 80 and 450 words per minute",
                                 {{"field", "speed"}});
        request.words_per_minute = static_cast<int>(speed->get<double>());
    }
    return request;
}

nlohmann::json TextToSpeechTask::run(const jobs::ClaimedJob& job, TaskContext& context) {
    const generation::SpeechRequest request = parse_speech_request(job.payload);
    const auto& settings = context.config();
    CreatedFile file(job, settings, "main", "wav");
    const auto provider =
        providers::registered().create_default<generation::SpeechProvider>(settings);
    prepare_directory(context, file.directory);
    JobProviderCalls calls(context);
    const generation::SynthesizedSpeech speech =
        call_provider([&] { return provider->synthesize(request, file.temp.path(), calls); });

    // Last safe point: past here the file and the media record are the job's effects.
    context.stop_if_cancelled();

    file.record.kind = "audio";
    file.record.mime_type = "audio/wav";
    file.record.duration_seconds = speech.duration_seconds;
    store_created_file(context, file);
    // Billed per second of audio made, settled with the file's record.
    const media::Media stored = context.in_transaction([&](db::Session& s) {
        settle_payment(s, job, billing::whole_seconds(speech.duration_seconds));
        return media::MediaRepository::upsert_for_job(s, file.record);
    });

    log::debug("speech synthesized", {{"job_id", job.public_id},
                                      {"workspace_id", job.workspace_id},
                                      {"media_id", stored.public_id},
                                      {"duration_seconds", speech.duration_seconds}});
    return {{"media_id", stored.public_id},
            {"duration_seconds", speech.duration_seconds},
            {"mime_type", "audio/wav"},
            {"size_bytes", stored.size_bytes},
            {"download_url", download_url(settings, stored)}};
}

}  // namespace squawk::workers::generate
