// Text on a card through Pango: layouts wrapped to a box and shrunk until they fit. Pango picks
// fallback fonts per character and the direction from the text itself, so any script it can
// shape (Arabic right to left, CJK, colour emoji) needs nothing special here.
#pragma once

#include "common/extensions/providers/cards/card_cairo.hpp"
#include "common/extensions/providers/cards/card_colors.hpp"

#include <functional>
#include <string>
#include <string_view>

namespace squawk::providers::cards {

struct TextStyle {
    std::string family;
    PangoWeight weight = PANGO_WEIGHT_NORMAL;
    PangoStyle slant = PANGO_STYLE_NORMAL;
    // Left and right swap for a right-to-left paragraph (Pango's auto-dir).
    PangoAlignment alignment = PANGO_ALIGN_LEFT;
    double line_spacing = 1.0;  // a factor of the font's own line height
};

// Pixel rectangle relative to where the layout is drawn.
struct Box {
    double x = 0;
    double y = 0;
    double width = 0;
    double height = 0;
};

// Empty or only white space: a field the card leaves out.
bool is_blank(std::string_view text);

// `text` at a font size of `pixels`, wrapped (between words, inside a word only when it alone
// is too long) to `width`.
LayoutPtr layout_text(cairo_t* context, const std::string& text, const TextStyle& style,
                      double pixels, double width);

// The space the layout's lines take, including line spacing.
Box logical_box(PangoLayout* layout);
// Where the layout paints, for placing display text by what the eye sees.
Box ink_box(PangoLayout* layout);

// The largest size from `largest` down to `smallest` (steps of a few percent) for which
// `fits(size)` holds; `smallest` when none does.
double fitting_size(double largest, double smallest, const std::function<bool(double)>& fits);

// `text` in `width` × `height` at the largest size that fits; at `smallest`, lines past the box
// are cut with an ellipsis rather than drawn outside it.
LayoutPtr fit_text(cairo_t* context, const std::string& text, const TextStyle& style,
                   double largest, double smallest, double width, double height);

// Whether the layout's first paragraph runs right to left (Arabic, Hebrew): marks placed beside
// the text go on its right then.
bool right_to_left(PangoLayout* layout);

// Paints the layout with its top-left corner at (x, y).
void draw_layout(cairo_t* context, PangoLayout* layout, double x, double y, const Rgb& color,
                 double alpha = 1.0);

// How many characters of `text` no installed font shows when set in `family` with fallback:
// zero means the card draws it without boxes.
int unknown_glyphs(const std::string& text, const std::string& family);

}  // namespace squawk::providers::cards
