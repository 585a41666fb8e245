// The parts of a deck that do not depend on its slides' text: the slide master, its one blank
// layout, the colour and font theme, and the relationships between them.
#pragma once

#include "common/extensions/presentation/deck.hpp"

#include <string>

namespace squawk::presentation {

// The XML declaration and the namespaces every PresentationML part opens with.
inline constexpr const char* kXmlDeclaration =
    "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n";
inline constexpr const char* kPmlNamespaces =
    " xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\""
    " xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\""
    " xmlns:p=\"http://schemas.openxmlformats.org/presentationml/2006/main\"";

// A relationships part listing (id, type, target) triples; a type without a scheme is one of
// ".../officeDocument/2006/relationships/".
struct Relationship {
    std::string id;
    std::string type;
    std::string target;
};
std::string relationships_xml(const std::vector<Relationship>& relationships);

// The empty shape tree group properties every spTree starts with.
std::string shape_tree_start();
// A solid background of "RRGGBB".
std::string background_xml(const std::string& color);

std::string slide_master_xml(const Deck& deck);
std::string slide_layout_xml();
std::string theme_xml(const Deck& deck);

}  // namespace squawk::presentation
