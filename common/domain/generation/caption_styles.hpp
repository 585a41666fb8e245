// The caption styles of shorts (spec 2.4): what GET /shorts/caption-styles lists. The short
// renderer takes its styles from this same table, so every listed style is one it draws.
#pragma once

#include <span>
#include <string_view>

namespace squawk::generation {

// How a style shows the words as they are spoken.
enum class CaptionMotion {
    highlight_line,  // a line of words, the one being spoken in the highlight colour
    pop_line,        // a line of words, the one being spoken coloured and popping out
    one_word,        // one word at a time, popping in
    weight_line,     // a line in the light weight, the word being spoken in bold
};

struct CaptionStyle {
    std::string_view id;
    std::string_view label;
    std::string_view font;  // a family from Debian's font packages (fonts-noto-core, -dejavu)
    bool light_bold;        // whether caption_format "light_bold" applies
    // What the renderer draws with; colours are ASS's &HAABBGGRR (alpha 00 is opaque).
    CaptionMotion motion;
    int font_size;                      // in the 1080x1920 frame
    std::string_view text_colour;       // of the words not being spoken
    std::string_view highlight_colour;  // of the word being spoken
    std::string_view outline_colour;
    std::string_view shadow_colour;
    int outline;  // pixels
    int shadow;   // pixels
    bool bold;
    bool uppercase;
    int words_per_line;           // at most; one_word shows one regardless
    std::string_view light_font;  // the family of the light weight ("" when it has none)
    std::string_view background;  // ffmpeg's colour behind the captions of an audio source
};

std::span<const CaptionStyle> caption_styles();
// The style of that id, or nullptr.
const CaptionStyle* find_caption_style(std::string_view id);

inline constexpr std::string_view kCaptionFormats[] = {"italic", "underline", "strikethrough",
                                                       "uppercase", "light_bold"};
inline constexpr std::string_view kClipLengths[] = {"auto", "30", "60", "90"};
inline constexpr std::string_view kShortGenres[] = {
    "podcast", "lifestyle", "sports", "marketing", "entertainment", "news", "education"};

}  // namespace squawk::generation
