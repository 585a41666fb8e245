// A slide's picture decoded for Cairo: PNG through Cairo's reader, JPEG through libjpeg.
#pragma once

#include "common/extensions/presentation/deck.hpp"
#include "common/extensions/providers/cards/card_cairo.hpp"

#include <string>

namespace squawk::presentation {

// An image surface of the picture; throws std::invalid_argument when the bytes are not a PNG or
// JPEG Cairo and libjpeg can read.
providers::cards::SurfacePtr decode_image(const std::string& bytes, const std::string& extension);

}  // namespace squawk::presentation
