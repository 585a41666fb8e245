// The slide parts of a deck: the title slide and one part per content slide, with text boxes and
// pictures placed from slide_layout.hpp.
#pragma once

#include "common/extensions/presentation/deck.hpp"

#include <string>

namespace squawk::presentation {

std::string title_slide_xml(const Deck& deck);
// `image_relationship` names the slide's picture in its relationships part (when it has one).
std::string content_slide_xml(const Deck& deck, const DeckSlide& slide,
                              const std::string& image_relationship);

}  // namespace squawk::presentation
