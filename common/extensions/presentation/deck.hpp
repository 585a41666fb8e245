// A presentation as the writers see it: a title slide, then one slide per requested slide with its
// title, bullets and optional picture, in the theme's colours. The PPTX, the PDF and the
// thumbnails are all written from one Deck.
#pragma once

#include "common/domain/generation/presentation_request.hpp"

#include <optional>
#include <string>
#include <vector>

namespace squawk::presentation {

// Colours as "RRGGBB", the form DrawingML's srgbClr takes.
struct DeckColors {
    std::string background;
    std::string title;
    std::string text;
    std::string accent;
};

// The theme's colours; `accent` ("#rrggbb", may be empty) replaces the theme's accent.
DeckColors colors_for(generation::PresentationTheme theme, const std::string& accent);

// A picture's file as stored (PNG or JPEG) and its size in pixels.
struct SlideImage {
    std::string bytes;
    std::string extension;  // "png" or "jpeg"
    int width = 0;
    int height = 0;
};

struct DeckSlide {
    std::string title;
    std::vector<std::string> bullets;
    std::optional<SlideImage> image;
};

struct Deck {
    std::string title;
    std::vector<DeckSlide> slides;  // the content slides; the title slide comes first
    DeckColors colors;
    std::string font;  // a fontconfig family; PowerPoint substitutes its own when absent

    // The title slide and the content slides.
    size_t page_count() const { return slides.size() + 1; }
};

}  // namespace squawk::presentation
