// Text to speech (scope audio:write): validated here, rendered by the generate worker pool.
#include "api/handlers/route_families.hpp"

#include "api/render/job_json.hpp"
#include "api/server/services.hpp"
#include "api/server/validation.hpp"
#include "common/core/config/config.hpp"
#include "common/domain/generation/speech_provider.hpp"
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

    const auto job = services.submitter.submit(
        ctx.workspace_id, jobs::kTextToSpeech,
        {{"text", text},
         {"voice", voice.value_or(std::string(generation::kDefaultVoice))},
         {"speed", speed.value_or(generation::kDefaultWordsPerMinute)}},
        ctx.is_test, ctx.charge_ledger_id);
    return Reply::ok(render::accepted_job_json(job), 202);
}

}  // namespace

template <>
std::span<const Route> routes<Family::audio>() {
    static constexpr std::array kRoutes{
        Route::post("/v1/audio/text-to-speech", Access::needs("audio:write"), text_to_speech)
            .billable("text_to_speech"),
    };
    return kRoutes;
}

}  // namespace squawk::api::handlers
