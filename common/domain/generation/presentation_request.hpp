// What a presentation job is asked for (POST /presentations/generate) and its bounds: the API
// validates against them, the job reads the accepted request back from its payload.
#pragma once

#include "common/core/names/wire_names.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace squawk::generation {

enum class PresentationTheme { light, dark, brand };

inline std::span<const char* const> wire_names(PresentationTheme) {
    static constexpr const char* names[] = {"light", "dark", "brand"};
    return names;
}

inline constexpr size_t kMaxPresentationTitleChars = 200;
inline constexpr size_t kMaxSlides = 50;
inline constexpr size_t kMaxSlideTitleChars = 200;
inline constexpr size_t kMaxBullets = 10;
inline constexpr size_t kMaxBulletChars = 300;
// A deck outlined by the text provider from a topic (presentation_outline.hpp).
inline constexpr size_t kMaxPresentationTopicChars = 500;
inline constexpr size_t kMinOutlineSlides = 1;
inline constexpr size_t kMaxOutlineSlides = 30;
inline constexpr size_t kDefaultOutlineSlides = 8;

struct SlideRequest {
    std::string title;
    std::vector<std::string> bullets;
    std::string image_media_id;  // empty: a slide of text only
};

// Either `slides` as given, or a `topic` the job has outlined in `slide_count` slides; the title
// may be left to the outline then.
struct PresentationRequest {
    std::string title;
    std::vector<SlideRequest> slides;
    std::string topic;
    size_t slide_count = kDefaultOutlineSlides;
    PresentationTheme theme = PresentationTheme::light;
    std::string accent_color;  // "#rrggbb", or empty for the theme's own

    nlohmann::json to_json() const;
    // Throws std::invalid_argument naming the field when `payload` is not a request this build
    // wrote (a job row edited by hand, or written by a newer build).
    static PresentationRequest from_json(const nlohmann::json& payload);
};

// Exactly "#rrggbb" in either case.
bool is_hex_color(std::string_view text);

}  // namespace squawk::generation
