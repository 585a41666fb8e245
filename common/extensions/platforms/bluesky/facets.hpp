// Rich text of a Bluesky post: the links in its text as app.bsky.richtext.facet ranges, which
// Bluesky needs to show them as links (it does not detect them itself).
#pragma once

#include <nlohmann/json.hpp>

#include <string_view>

namespace squawk::social::bluesky {

// One facet per http(s) URL in `text`, each {index: {byteStart, byteEnd}, features: [{$type:
// app.bsky.richtext.facet#link, uri}]} with UTF-8 byte offsets (end exclusive). A URL starts
// after whitespace or an opening bracket and ends before whitespace; closing punctuation that
// ends a sentence is left out, as is a closing bracket the URL did not open.
nlohmann::json link_facets(std::string_view text);

}  // namespace squawk::social::bluesky
