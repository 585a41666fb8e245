#include "common/extensions/providers/cards/card_templates.hpp"

#include <array>

namespace squawk::providers::cards {
namespace {

constexpr std::array<std::string_view, 4> kNames{"title", "quote", "list", "stat"};

Rgb hex(std::string_view text) {
    return parse_hex_color(text).value_or(Rgb{});
}

// Dark cards carry light text and a warm or bright accent; light ones the reverse.
Palette default_palette(CardTemplate card) {
    switch (card) {
        case CardTemplate::title:  // indigo to violet, amber accent
            return {
                {hex("#1e1b4b"), hex("#3730a3"), hex("#7c3aed")}, hex("#ffffff"), hex("#fbbf24")};
        case CardTemplate::quote:  // warm paper, burnt-orange accent
            return {{hex("#fffbeb"), hex("#fde8c8")}, hex("#1f2937"), hex("#c2410c")};
        case CardTemplate::list:  // cool white, blue accent
            return {{hex("#f8fafc"), hex("#dbe4f0")}, hex("#0f172a"), hex("#2563eb")};
        case CardTemplate::stat:  // night to deep teal, mint accent
            return {{hex("#0f172a"), hex("#134e4a")}, hex("#f1f5f9"), hex("#2dd4bf")};
    }
    return {};
}

}  // namespace

std::span<const std::string_view> template_names() {
    return kNames;
}

std::optional<CardTemplate> template_named(std::string_view name) {
    for (std::size_t i = 0; i < kNames.size(); ++i)
        if (kNames[i] == name) return static_cast<CardTemplate>(i);
    return std::nullopt;
}

std::string_view name_of(CardTemplate card) {
    return kNames[static_cast<std::size_t>(card)];
}

Palette palette_for(CardTemplate card, const generation::ImageRequest& request) {
    Palette palette = default_palette(card);
    if (!request.background.empty()) {
        std::vector<Rgb> background;
        for (const auto& color : request.background)
            if (const auto rgb = parse_hex_color(color)) background.push_back(*rgb);
        if (!background.empty()) palette.background = std::move(background);
    }
    if (const auto text = parse_hex_color(request.text_color)) palette.text = *text;
    if (const auto accent = parse_hex_color(request.accent_color)) palette.accent = *accent;
    return palette;
}

}  // namespace squawk::providers::cards
