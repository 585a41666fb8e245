// The surface a template draws on: its size, the margins its content keeps, its palette and
// font. Every length a template uses is a fraction of `unit`, so the five sizes share one design.
#pragma once

#include "common/extensions/providers/cards/card_colors.hpp"
#include "common/extensions/providers/cards/card_text.hpp"

#include <string>

namespace squawk::providers::cards {

struct Canvas {
    cairo_t* context = nullptr;
    double width = 0;
    double height = 0;
    double unit = 0;  // the shorter side
    Box content;      // inside the margins
    Palette palette;
    std::string family;
};

// A bar with round ends: the accent line above titles and under headings.
void fill_bar(const Canvas& canvas, double x, double y, double width, double height,
              const Rgb& color);

}  // namespace squawk::providers::cards
