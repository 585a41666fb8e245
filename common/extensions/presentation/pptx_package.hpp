// The parts of a PresentationML package (what a .pptx zip holds) for a deck: the minimal set
// PowerPoint and LibreOffice open, with one slide part per page and one media part per picture.
#pragma once

#include "common/extensions/presentation/deck.hpp"

#include <string>
#include <vector>

namespace squawk::presentation {

inline constexpr const char* kPptxMimeType =
    "application/vnd.openxmlformats-officedocument.presentationml.presentation";

struct PackagePart {
    std::string name;  // its path in the zip, without a leading '/'
    std::string content;
};

// Every part, [Content_Types].xml first; it lists each other part's type.
std::vector<PackagePart> pptx_parts(const Deck& deck);

}  // namespace squawk::presentation
