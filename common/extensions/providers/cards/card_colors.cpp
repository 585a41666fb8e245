#include "common/extensions/providers/cards/card_colors.hpp"

namespace squawk::providers::cards {
namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

std::optional<Rgb> parse_hex_color(std::string_view text) {
    if (text.size() != 7 || text.front() != '#') return std::nullopt;
    double channels[3];
    for (int i = 0; i < 3; ++i) {
        const int high = hex_digit(text[1 + 2 * i]);
        const int low = hex_digit(text[2 + 2 * i]);
        if (high < 0 || low < 0) return std::nullopt;
        channels[i] = (high * 16 + low) / 255.0;
    }
    return Rgb{channels[0], channels[1], channels[2]};
}

}  // namespace squawk::providers::cards
