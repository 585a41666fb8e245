// The caption styles of shorts (spec 2.4): what GET /shorts/caption-styles lists. The short
// renderer takes its styles from this same table, so every listed style is one it draws.
#pragma once

#include <span>
#include <string_view>

namespace squawk::generation {

struct CaptionStyle {
    std::string_view id;
    std::string_view label;
    std::string_view font;  // a family from Debian's font packages (fonts-noto-core, -dejavu)
    bool light_bold;        // whether caption_format "light_bold" applies
};

std::span<const CaptionStyle> caption_styles();

inline constexpr std::string_view kCaptionFormats[] = {"italic", "underline", "strikethrough",
                                                       "uppercase", "light_bold"};
inline constexpr std::string_view kClipLengths[] = {"auto", "30", "60", "90"};
inline constexpr std::string_view kShortGenres[] = {
    "podcast", "lifestyle", "sports", "marketing", "entertainment", "news", "education"};

}  // namespace squawk::generation
