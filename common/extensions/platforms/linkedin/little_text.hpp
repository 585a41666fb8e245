// LinkedIn's "little" text format, in which the Posts API keeps a post's commentary: plain text
// with reserved characters escaped by a backslash, mentions (@[Name](urn)) and hashtag templates
// ({hashtag|#|tag}). Squawk sends plain text, so what would read as markup is escaped.
#pragma once

#include <string>
#include <string_view>

namespace squawk::social::linkedin {

// `text` as little text that shows exactly `text`: each of | { } @ [ ] ( ) < > \ * _ ~ escaped.
// '#' is left as it is, so that a #tag the author wrote stays a hashtag.
std::string escape_little_text(std::string_view text);

// The text a reader sees of little `commentary`: escapes undone, a mention as its name, a hashtag
// template as #tag.
std::string plain_text(std::string_view commentary);

}  // namespace squawk::social::linkedin
