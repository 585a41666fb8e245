// The four card templates, each drawn on a canvas whose background is already painted. They
// trust check(): required fields are present and within their limits.
#pragma once

#include "common/domain/generation/image_provider.hpp"
#include "common/extensions/providers/cards/card_canvas.hpp"

namespace squawk::providers::cards {

// A bold centred title under an accent bar, an optional subtitle beneath.
void draw_title_card(const Canvas& canvas, const generation::ImageRequest& request);
// A large accent quotation mark, the text, and "— author".
void draw_quote_card(const Canvas& canvas, const generation::ImageRequest& request);
// An optional heading with an accent bar, then items behind accent bullets.
void draw_list_card(const Canvas& canvas, const generation::ImageRequest& request);
// A large value in the accent colour over its label.
void draw_stat_card(const Canvas& canvas, const generation::ImageRequest& request);

}  // namespace squawk::providers::cards
