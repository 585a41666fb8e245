// Rich text of a Bluesky post: the links and @handle mentions in its text as
// app.bsky.richtext.facet ranges, which Bluesky needs to show them as such (it does not detect
// them itself).
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::social::bluesky {

// One facet per http(s) URL in `text`, each {index: {byteStart, byteEnd}, features: [{$type:
// app.bsky.richtext.facet#link, uri}]} with UTF-8 byte offsets (end exclusive). A URL starts
// after whitespace or an opening bracket and ends before whitespace; closing punctuation that
// ends a sentence is left out, as is a closing bracket the URL did not open.
nlohmann::json link_facets(std::string_view text);

// "@handle" in a text, as Bluesky's own clients find it: the '@' at the start or after whitespace
// or '(' (so an e-mail address is none), then a handle by the atproto syntax (at least two
// dot-separated labels of ASCII letters, digits and inner hyphens, the last starting with a
// letter), without the sentence's final period.
struct Mention {
    size_t byte_start = 0;  // of the '@'
    size_t byte_end = 0;    // exclusive
    std::string handle;     // in lower case, as handles compare
};

std::vector<Mention> find_mentions(std::string_view text);

// The facets of `text` in text order: its links, and each mention whose handle `dids` maps to a
// DID (app.bsky.richtext.facet#mention) and that no link contains. A mention without one stays
// plain text, as in Bluesky's clients when a handle does not resolve.
nlohmann::json post_facets(std::string_view text, const std::map<std::string, std::string>& dids);

}  // namespace squawk::social::bluesky
