// Draws one card into a new image surface of the request's size: the background (flat or a
// diagonal gradient with soft accent circles) and then the template's own drawing.
#pragma once

#include "common/domain/generation/image_provider.hpp"
#include "common/extensions/providers/cards/card_cairo.hpp"
#include "common/extensions/providers/cards/card_templates.hpp"

#include <string>

namespace squawk::providers::cards {

// An opaque RGB24 surface. `request` must have passed check(). Throws generation::ProviderError
// (retryable) when Cairo cannot allocate or draw it.
SurfacePtr render_card(const generation::ImageRequest& request, CardTemplate card,
                       const std::string& family);

}  // namespace squawk::providers::cards
