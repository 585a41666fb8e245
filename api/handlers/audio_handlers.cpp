// Audio (scopes audio:read / audio:write): text to speech and speech to text, validated here and
// made by the generate worker pool; transcripts are read back by id.
#include "api/handlers/route_families.hpp"

#include "api/handlers/creation_routes.hpp"
#include "api/render/job_json.hpp"
#include "api/server/billing_gate.hpp"
#include "api/server/services.hpp"
#include "api/server/validation.hpp"
#include "common/core/config/config.hpp"
#include "common/domain/billing/billable_quantity.hpp"
#include "common/domain/generation/speech_provider.hpp"
#include "common/domain/generation/transcription_provider.hpp"
#include "common/domain/jobs/job_types.hpp"
#include "common/extensions/providers/registered.hpp"

#include <array>

namespace squawk::api::handlers {
namespace {
constexpr size_t kMaxSpeechCharacters = 5000;

Reply text_to_speech(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    const std::string text = body.required_string("text", kMaxSpeechCharacters);
    const auto speech =
        providers::registered().create_default<generation::SpeechProvider>(services.config);
    const auto voice = body.optional_enum("voice", speech->voices());
    const auto speed = body.optional_integer("speed", generation::kMinWordsPerMinute,
                                             generation::kMaxWordsPerMinute);
    body.reject_unknown_fields();
    body.finish();

    const int words_per_minute = speed.value_or(generation::kDefaultWordsPerMinute);
    const auto payment =
        reservation_for(ctx, services, billing::speech_seconds_bound(text, words_per_minute));
    const auto job = services.submitter.submit(
        ctx.workspace_id, jobs::kTextToSpeech,
        {{"text", text},
         {"voice", voice.value_or(std::string(generation::kDefaultVoice))},
         {"speed", words_per_minute}},
        ctx.is_test, payment ? &*payment : nullptr);
    Reply reply = Reply::ok(render::accepted_job_json(job), 202);
    reply.usage = usage_json(ctx, services, job.reserved_units);
    return reply;
}

Reply speech_to_text(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    const std::string media_id = body.required_string("media_id", 64);
    const auto language = body.optional_string("language", 16);
    body.reject_unknown_fields();
    body.finish();
    const auto source = check_input_media(ctx, services, body, "media_id", media_id,
                                          {"audio", "video"}, "audio or video");
    body.finish();

    const auto provider = configured_provider<generation::TranscriptionProvider>(services);
    const auto languages = provider->languages();
    const std::string chosen_language = language.value_or(languages.front());
    if (std::find(languages.begin(), languages.end(), chosen_language) == languages.end()) {
        std::string listed;
        for (const auto& l : languages) listed += (listed.empty() ? "" : ", ") + l;
        body.reject("language", "must be one of: " + listed);
        body.finish();
    }
    const nlohmann::json request{{"media_id", media_id}, {"language", chosen_language}};
    // Billed per second of the input, as ffprobe measured it when the media was confirmed.
    return accept_creation(ctx, services, generation::CreationKind::transcript, jobs::kSpeechToText,
                           request, billing::whole_seconds(source->duration_seconds.value_or(0)));
}

}  // namespace

template <>
std::span<const Route> routes<Family::audio>() {
    static constexpr std::array kRoutes{
        Route::post("/v1/audio/text-to-speech", Access::needs("audio:write"), text_to_speech)
            .billable("text_to_speech"),
        Route::post("/v1/audio/speech-to-text", Access::needs("audio:write"), speech_to_text)
            .billable("speech_to_text"),
        Route::get("/v1/audio/{audio_id}", Access::needs("audio:read"),
                   get_creation<generation::CreationKind::transcript>),
    };
    return kRoutes;
}

}  // namespace squawk::api::handlers
