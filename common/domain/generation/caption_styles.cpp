#include "common/domain/generation/caption_styles.hpp"

namespace squawk::generation {
namespace {

// Each family resolves exactly with fc-match: Noto Sans (fonts-noto-core) has Regular and Bold;
// DejaVu Sans (fonts-dejavu-core) also has its ExtraLight as "DejaVu Sans Light".
constexpr CaptionStyle kStyles[] = {
    {"karaoke", "Karaoke", "Noto Sans", false, CaptionMotion::highlight_line, 84, "&H00FFFFFF",
     "&H0000E1FF", "&H00000000", "&H80000000", 5, 2, true, false, 4, "", "0x14141c"},
    {"beasty", "Beasty", "Noto Sans", false, CaptionMotion::pop_line, 104, "&H00FFFFFF",
     "&H0000FF5A", "&H00000000", "&H00000000", 8, 4, true, true, 3, "", "0x1a1030"},
    {"word-pop", "Word Pop", "DejaVu Sans", false, CaptionMotion::one_word, 128, "&H00FFFFFF",
     "&H00FFFFFF", "&H00202020", "&H80000000", 6, 3, true, false, 1, "", "0x101820"},
    {"light-bold", "Light Bold", "DejaVu Sans", true, CaptionMotion::weight_line, 88, "&H00FFFFFF",
     "&H00FFFFFF", "&H00000000", "&H60000000", 3, 2, false, false, 4, "DejaVu Sans Light",
     "0x181818"},
};

}  // namespace

std::span<const CaptionStyle> caption_styles() {
    return kStyles;
}

const CaptionStyle* find_caption_style(std::string_view id) {
    for (const auto& style : kStyles)
        if (style.id == id) return &style;
    return nullptr;
}

}  // namespace squawk::generation
