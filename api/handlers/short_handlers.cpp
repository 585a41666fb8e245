// Shorts (scope videos:read for the style list): the caption styles a short may be rendered with
// (spec 2.4), listed from the renderer's own table.
#include "api/handlers/route_families.hpp"

#include "api/server/services.hpp"
#include "common/domain/generation/caption_styles.hpp"

#include <array>

namespace squawk::api::handlers {
namespace {

nlohmann::json names(std::span<const std::string_view> values) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto v : values) out.push_back(v);
    return out;
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

}  // namespace

template <>
std::span<const Route> routes<Family::shorts>() {
    static constexpr std::array kRoutes{
        Route::get("/v1/shorts/caption-styles", Access::needs("videos:read"), list_caption_styles),
    };
    return kRoutes;
}

}  // namespace squawk::api::handlers
