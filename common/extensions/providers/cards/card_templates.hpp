// The card templates: their names as the API spells them and the palette each falls back to when
// a request names no colours.
#pragma once

#include "common/domain/generation/image_provider.hpp"
#include "common/extensions/providers/cards/card_colors.hpp"

#include <optional>
#include <span>
#include <string_view>

namespace squawk::providers::cards {

enum class CardTemplate { title, quote, list, stat };

std::span<const std::string_view> template_names();
std::optional<CardTemplate> template_named(std::string_view name);
std::string_view name_of(CardTemplate card);

// The template's palette with the request's colours in place of its own; the colours must have
// passed check() (an unparsable one keeps the template's).
Palette palette_for(CardTemplate card, const generation::ImageRequest& request);

}  // namespace squawk::providers::cards
