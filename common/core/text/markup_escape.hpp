// The one escaping rule HTML and XML text share: the five characters markup gives meaning to,
// each as an entity both languages read, so text placed in a page or a document part stays text.
#pragma once

#include <string_view>

namespace squawk::text {

// The entity standing for `c` (& < > " '), or empty when `c` needs none.
constexpr std::string_view markup_entity(char c) {
    switch (c) {
        case '&':
            return "&amp;";
        case '<':
            return "&lt;";
        case '>':
            return "&gt;";
        case '"':
            return "&quot;";
        case '\'':
            return "&#39;";
        default:
            return {};
    }
}

}  // namespace squawk::text
