// Draws one page of a deck with Cairo and Pango in page points (960 × 540): the same function
// paints the PDF's pages and the PNG thumbnails, so they cannot drift apart.
#pragma once

#include "common/extensions/presentation/deck.hpp"

#include <cairo.h>

namespace squawk::presentation {

// Page 0 is the title slide, page i the deck's slide i - 1. The caller scales `context` to its
// surface. Throws std::invalid_argument when a slide's picture cannot be decoded.
void draw_page(cairo_t* context, const Deck& deck, size_t page);

}  // namespace squawk::presentation
