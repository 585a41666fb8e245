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

struct SlideRequest {
    std::string title;
    std::vector<std::string> bullets;
    std::string image_media_id;  // empty: a slide of text only
};

struct PresentationRequest {
    std::string title;
    std::vector<SlideRequest> slides;
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
