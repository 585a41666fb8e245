#include "api/handlers/audio_handlers.hpp"

#include "api/render/job_json.hpp"
#include "api/server/validation.hpp"
#include "common/core/config/config.hpp"
#include "common/domain/generation/speech_provider.hpp"
#include "common/domain/jobs/job_types.hpp"
#include "common/extensions/providers/registered.hpp"

namespace squawk::api::handlers {

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

}  // namespace squawk::api::handlers
