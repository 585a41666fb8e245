// The local card renderer: the font family its text starts from, JPEG quality, and how long its
// longest field may be. Section [providers.cards].
#pragma once

#include "common/core/config/config_fwd.hpp"

#include <string>

namespace squawk::config {

struct CardsSettings {
    // A fontconfig family; characters it lacks fall back to other installed fonts (Noto CJK,
    // Noto Color Emoji, ...).
    std::string font = "Noto Sans";
    int jpeg_quality = 90;
    // The quote template's text, in characters; the short fields have fixed limits a card's
    // layout was designed for.
    int max_text_chars = 400;
};

SectionSchema<CardsSettings> cards_schema();

}  // namespace squawk::config
