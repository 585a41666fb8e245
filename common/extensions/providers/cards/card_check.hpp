// What makes a card request unrenderable: a missing or unknown template, its fields missing, too
// long or not for it, colours not "#rrggbb", a size the API does not offer, a prompt or model.
#pragma once

#include "common/domain/generation/image_provider.hpp"
#include "common/extensions/providers/cards/cards_settings.hpp"

#include <vector>

namespace squawk::providers::cards {

inline constexpr std::size_t kMaxListItems = 8;

// Every problem, each named by its API field ("items[2]", "background[0]").
std::vector<generation::FieldProblem> check_card(const generation::ImageRequest& request,
                                                 const config::CardsSettings& settings);

}  // namespace squawk::providers::cards
