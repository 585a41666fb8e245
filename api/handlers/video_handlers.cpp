// Videos (scopes videos:read / videos:write): narrated slideshows of scenes, each a picture (the
// workspace's image or a title card) held for its narration, composed in the generate pool.
#include "api/handlers/route_families.hpp"

#include "api/handlers/creation_routes.hpp"
#include "api/server/validation.hpp"
#include "common/domain/billing/billable_quantity.hpp"
#include "common/domain/generation/image_provider_choice.hpp"
#include "common/domain/generation/speech_provider.hpp"
#include "common/domain/generation/video_request.hpp"
#include "common/domain/jobs/job_types.hpp"

#include <array>

namespace squawk::api::handlers {
namespace {

using generation::CreationKind;

generation::VideoScene read_scene(const nlohmann::json& given, const std::string& field,
                                  Validator& body) {
    if (!given.is_object()) {
        body.reject(field, "must be an object with text and optionally image_media_id");
        return {};
    }
    Validator scene(given, field + ".");
    generation::VideoScene s;
    s.text = scene.required_string("text", generation::kMaxSceneTextChars);
    s.image_media_id = scene.optional_string("image_media_id", kMaxIdChars).value_or("");
    scene.reject_unknown_fields();
    body.merge(scene);
    return s;
}

generation::VideoRequest read_video_request(Validator& body,
                                            std::span<const std::string_view> voices) {
    generation::VideoRequest r;
    r.title = body.optional_string("title", generation::kMaxVideoTitleChars).value_or("");
    if (const auto size = body.optional_enum("size", generation::kVideoSizeNames))
        r.size = generation::parse_video_size(*size).value_or(r.size);
    r.voice = body.optional_enum("voice", voices).value_or(r.voice);
    const auto* scenes = body.optional_array("scenes", 1, generation::kMaxVideoScenes);
    if (scenes) {
        for (size_t i = 0; i < scenes->size(); ++i)
            r.scenes.push_back(read_scene((*scenes)[i], "scenes[" + std::to_string(i) + "]", body));
    } else if (body.problems().count("scenes") == 0) {
        body.reject("scenes", "required: 1 to " + std::to_string(generation::kMaxVideoScenes) +
                                  " scenes, each with its text");
    }
    body.reject_unknown_fields();
    return r;
}

// Each scene's own picture must be a ready image of the workspace.
void check_pictures(const RequestContext& ctx, Services& services,
                    const generation::VideoRequest& request, Validator& body) {
    for (size_t i = 0; i < request.scenes.size(); ++i)
        if (!request.scenes[i].image_media_id.empty())
            check_input_media(ctx, services, body,
                              "scenes[" + std::to_string(i) + "].image_media_id",
                              request.scenes[i].image_media_id, {"image"}, "an image");
}

Reply generate_video(const RequestContext& ctx, Services& services) {
    const auto speech = configured_provider<generation::SpeechProvider>(services);
    Validator body(ctx.body);
    const auto request = read_video_request(body, speech->voices());
    body.finish();
    check_pictures(ctx, services, request, body);
    body.finish();

    const bool needs_cards =
        std::any_of(request.scenes.begin(), request.scenes.end(),
                    [](const generation::VideoScene& s) { return s.image_media_id.empty(); });
    generation::ImageRequest title_card;
    title_card.template_name = "title";
    if (needs_cards &&
        !generation::choose_image_provider(providers::registered(), services.config, title_card)
             .provider)
        throw provider_missing(generation::Modality::image,
                               "No image provider renders the title cards of scenes without an "
                               "image");

    const auto payload = request.to_json();
    check_content_policy(ctx, services, payload);
    std::vector<std::string> narrations;
    for (const auto& scene : request.scenes) narrations.push_back(scene.text);
    return accept_creation(
        ctx, services, CreationKind::video, jobs::kGenerateVideo, payload,
        billing::video_seconds_bound(narrations, generation::kDefaultWordsPerMinute));
}

}  // namespace

template <>
std::span<const Route> routes<Family::videos>() {
    constexpr Access kRead = Access::needs("videos:read");
    constexpr Access kWrite = Access::needs("videos:write");
    static constexpr std::array kRoutes{
        Route::post("/v1/videos/generate", kWrite, generate_video).billable("video"),
        Route::get("/v1/videos", kRead, list_creations<CreationKind::video>),
        Route::get("/v1/videos/{video_id}", kRead, get_creation<CreationKind::video>),
        Route::del("/v1/videos/{video_id}", kWrite, delete_creation<CreationKind::video>),
    };
    return kRoutes;
}

}  // namespace squawk::api::handlers
