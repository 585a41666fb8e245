// Text placed in the deck's XML parts: escaped so any title or bullet (markup characters,
// quotes, emoji) leaves the part well-formed.
#pragma once

#include <string>
#include <string_view>

namespace squawk::presentation {

// `text` escaped for element content and attribute values. Characters XML 1.0 forbids (control
// characters) are dropped; tabs and line breaks become spaces, as a run holds one line.
std::string xml_text(std::string_view text);

}  // namespace squawk::presentation
