#include "common/domain/generation/caption_styles.hpp"

namespace squawk::generation {
namespace {

constexpr CaptionStyle kStyles[] = {
    {"karaoke", "Karaoke", "Noto Sans", false},
    {"beasty", "Beasty", "Noto Sans", false},
    {"word-pop", "Word Pop", "DejaVu Sans", false},
    {"light-bold", "Light Bold", "Noto Sans", true},
};

}  // namespace

std::span<const CaptionStyle> caption_styles() {
    return kStyles;
}

}  // namespace squawk::generation
