// Colours of a card: the "#rrggbb" form the API accepts, and each template's own palette for
// the colours a request leaves out.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace squawk::providers::cards {

// Channels in 0..1, as Cairo takes them.
struct Rgb {
    double red = 0;
    double green = 0;
    double blue = 0;
};

// Exactly "#rrggbb" (either case); anything else is nullopt.
std::optional<Rgb> parse_hex_color(std::string_view text);

struct Palette {
    std::vector<Rgb> background;  // 1 colour is flat, 2 or 3 a diagonal gradient
    Rgb text;
    Rgb accent;
};

}  // namespace squawk::providers::cards
