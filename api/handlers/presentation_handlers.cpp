// Presentations (scopes presentations:read / presentations:write): slides given or outlined by the
// text provider, laid out locally in the generate pool as a PPTX deck, a PDF and thumbnails; read,
// listed and deleted here.
#include "api/handlers/route_families.hpp"

#include "api/handlers/creation_routes.hpp"
#include "api/server/validation.hpp"
#include "common/domain/generation/presentation_request.hpp"
#include "common/domain/generation/text_provider.hpp"
#include "common/domain/jobs/job_types.hpp"

#include <array>

namespace squawk::api::handlers {
namespace {

using generation::CreationKind;

generation::SlideRequest read_slide(const nlohmann::json& given, const std::string& prefix,
                                    Validator& body) {
    generation::SlideRequest slide;
    Validator fields(given, prefix + ".");
    slide.title = fields.required_string("title", generation::kMaxSlideTitleChars);
    if (const auto* bullets = fields.optional_array("bullets", 0, generation::kMaxBullets)) {
        for (size_t i = 0; i < bullets->size(); ++i) {
            // Each bullet is checked by name, so a problem points at the one that is wrong.
            const std::string name = "bullets[" + std::to_string(i) + "]";
            Validator bullet(nlohmann::json{{name, (*bullets)[i]}}, prefix + ".");
            slide.bullets.push_back(bullet.required_string(name, generation::kMaxBulletChars));
            fields.merge(bullet);
        }
    }
    slide.image_media_id = fields.optional_string("image_media_id", kMaxIdChars).value_or("");
    fields.reject_unknown_fields();
    body.merge(fields);
    return slide;
}

// The slides as given, or the topic the text provider outlines: exactly one of them.
void read_content(Validator& body, generation::PresentationRequest& request) {
    request.topic =
        body.optional_string("topic", generation::kMaxPresentationTopicChars).value_or("");
    const auto slide_count = body.optional_integer("slide_count", generation::kMinOutlineSlides,
                                                   generation::kMaxOutlineSlides);
    const auto* slides = body.optional_array("slides", 1, generation::kMaxSlides);
    if (!request.topic.empty()) {
        request.slide_count =
            static_cast<size_t>(slide_count.value_or(generation::kDefaultOutlineSlides));
        if (slides) body.reject("slides", "cannot be given with topic");
        return;
    }
    if (slide_count) body.reject("slide_count", "is given only with topic");
    if (!slides && !body.problems().contains("slides"))
        body.reject("slides", "slides or topic is required");
    if (slides)
        for (size_t i = 0; i < slides->size(); ++i) {
            const std::string prefix = "slides[" + std::to_string(i) + "]";
            if ((*slides)[i].is_object())
                request.slides.push_back(read_slide((*slides)[i], prefix, body));
            else
                body.reject(prefix, "must be an object with a title");
        }
}

Reply generate_presentation(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    generation::PresentationRequest request;
    read_content(body, request);
    // An outlined deck may take its title from the outline.
    if (request.topic.empty())
        request.title = body.required_string("title", generation::kMaxPresentationTitleChars);
    else
        request.title =
            body.optional_string("title", generation::kMaxPresentationTitleChars).value_or("");
    request.theme = body.optional_enum<generation::PresentationTheme>("theme").value_or(
        generation::PresentationTheme::light);
    request.accent_color = body.optional_string("accent_color", 7).value_or("");
    if (!request.accent_color.empty() && !generation::is_hex_color(request.accent_color))
        body.reject("accent_color", "must be a colour as #rrggbb");
    body.reject_unknown_fields();
    body.finish();
    for (size_t i = 0; i < request.slides.size(); ++i)
        if (!request.slides[i].image_media_id.empty())
            check_input_media(ctx, services, body,
                              "slides[" + std::to_string(i) + "].image_media_id",
                              request.slides[i].image_media_id, {"image/png", "image/jpeg"},
                              "a PNG or JPEG image");
    body.finish();
    if (!request.topic.empty()) configured_provider<generation::TextProvider>(services);

    const auto payload = request.to_json();
    check_content_policy(ctx, services, payload);
    return accept_creation(ctx, services, CreationKind::presentation, jobs::kGeneratePresentation,
                           payload,
                           static_cast<long long>(request.topic.empty() ? request.slides.size()
                                                                        : request.slide_count));
}

}  // namespace

template <>
std::span<const Route> routes<Family::presentations>() {
    constexpr Access kRead = Access::needs("presentations:read");
    constexpr Access kWrite = Access::needs("presentations:write");
    static constexpr std::array kRoutes{
        Route::post("/v1/presentations/generate", kWrite, generate_presentation)
            .billable("presentation"),
        Route::get("/v1/presentations", kRead, list_creations<CreationKind::presentation>),
        Route::get("/v1/presentations/{presentation_id}", kRead,
                   get_creation<CreationKind::presentation>),
        Route::del("/v1/presentations/{presentation_id}", kWrite,
                   delete_creation<CreationKind::presentation>),
    };
    return kRoutes;
}

}  // namespace squawk::api::handlers
