#include "common/extensions/providers/cards/cards_settings.hpp"

#include "common/core/config/section_schema.hpp"

namespace squawk::config {

SectionSchema<CardsSettings> cards_schema() {
    using S = CardsSettings;
    return {{
                text("font", &S::font, false),
                integer("jpeg_quality", &S::jpeg_quality, 1, 100),
                // Beyond about a thousand characters the text shrinks below readable on a card.
                integer("max_text_chars", &S::max_text_chars, 1, 1000),
            },
            {}};
}

}  // namespace squawk::config
