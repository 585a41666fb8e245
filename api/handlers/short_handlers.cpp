// Shorts (scopes videos:read / videos:write): clips cut from an audio or video of the workspace
// at its pauses, reframed to 9:16 with captions burnt in, made in the generate pool; and the
// caption styles a short may be rendered with (spec 2.4), listed from the renderer's own table.
#include "api/handlers/route_families.hpp"

#include "api/handlers/creation_routes.hpp"
#include "api/server/services.hpp"
#include "api/server/validation.hpp"
#include "common/domain/billing/billable_quantity.hpp"
#include "common/domain/generation/caption_styles.hpp"
#include "common/domain/generation/clip_plan.hpp"
#include "common/domain/generation/short_request.hpp"
#include "common/domain/generation/transcription_provider.hpp"
#include "common/domain/jobs/job_types.hpp"

#include <array>

namespace squawk::api::handlers {
namespace {

using generation::CreationKind;

constexpr size_t kMaxFormatChars = 16;

nlohmann::json names(std::span<const std::string_view> values) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto v : values) out.push_back(v);
    return out;
}

std::vector<std::string_view> style_ids() {
    std::vector<std::string_view> ids;
    for (const auto& s : generation::caption_styles()) ids.push_back(s.id);
    return ids;
}

Reply list_caption_styles(const RequestContext&, Services&) {
    nlohmann::json styles = nlohmann::json::array();
    for (const auto& s : generation::caption_styles())
        styles.push_back(
            {{"id", s.id}, {"label", s.label}, {"font", s.font}, {"light_bold", s.light_bold}});
    return Reply::ok({{"caption_styles", std::move(styles)},
                      {"caption_format", names(generation::kCaptionFormats)},
                      {"clip_lengths", names(generation::kClipLengths)},
                      {"genres", names(generation::kShortGenres)}});
}

generation::ShortRequest read_short_request(Validator& body) {
    generation::ShortRequest r;
    r.media_id = body.required_string("media_id", kMaxIdChars);
    const auto ids = style_ids();
    r.caption_style = body.optional_enum("caption_style", ids).value_or(r.caption_style);
    r.caption_format =
        body.optional_string_array("caption_format", std::size(generation::kCaptionFormats),
                                   kMaxFormatChars, generation::kCaptionFormats, 0)
            .value_or(r.caption_format);
    r.clip_length =
        body.optional_enum("clip_length", generation::kClipLengths).value_or(r.clip_length);
    r.max_clips = static_cast<int>(
        body.optional_integer("max_clips", 1, generation::kMaxShortClips).value_or(r.max_clips));
    r.genre = body.optional_enum("genre", generation::kShortGenres).value_or("");
    body.reject_unknown_fields();
    const auto* style = generation::find_caption_style(r.caption_style);
    if (style && !style->light_bold && r.has_format("light_bold"))
        body.reject("caption_format",
                    "light_bold applies only to the styles listed with light_bold true");
    return r;
}

Reply generate_short(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    const auto request = read_short_request(body);
    body.finish();
    check_input_media(ctx, services, body, "media_id", request.media_id, {"audio", "video"},
                      "audio or video");
    body.finish();
    configured_provider<generation::TranscriptionProvider>(services);

    const long long clip_seconds = generation::fixed_clip_seconds(request.clip_length)
                                       .value_or(generation::kAutoMaxClipSeconds);
    return accept_creation(ctx, services, CreationKind::short_video, jobs::kGenerateShort,
                           request.to_json(),
                           billing::short_seconds_bound(clip_seconds, request.max_clips));
}

}  // namespace

template <>
std::span<const Route> routes<Family::shorts>() {
    constexpr Access kRead = Access::needs("videos:read");
    constexpr Access kWrite = Access::needs("videos:write");
    static constexpr std::array kRoutes{
        Route::get("/v1/shorts/caption-styles", kRead, list_caption_styles),
        Route::post("/v1/shorts/generate", kWrite, generate_short).billable("short"),
        Route::get("/v1/shorts", kRead, list_creations<CreationKind::short_video>),
        Route::get("/v1/shorts/{short_id}", kRead, get_creation<CreationKind::short_video>),
        Route::del("/v1/shorts/{short_id}", kWrite, delete_creation<CreationKind::short_video>),
    };
    return kRoutes;
}

}  // namespace squawk::api::handlers
