// The readable text of a web page, for grounding an article on a URL: what a reader sees, without
// scripts, styles, navigation or markup, entities decoded and whitespace collapsed. A pure function
// of the bytes, since the page comes from anyone.
#pragma once

#include <string>
#include <string_view>

namespace squawk::generation {

// The text of `html`: script, style, noscript, template, svg, iframe, nav, head-less markup and
// comments dropped; block elements (p, div, li, h1-h6, br, tr, ...) end a line; character
// references (named ones in common use, decimal and hex) decoded, invalid ones as U+FFFD; runs
// of spaces made one and runs of blank lines one line break. At most `max_bytes` bytes, cut at a
// character boundary.
std::string html_text(std::string_view html, size_t max_bytes);

// `text` with control characters turned into spaces and whitespace collapsed the same way; for
// text/plain pages. At most `max_bytes` bytes, cut at a character boundary.
std::string plain_text(std::string_view text, size_t max_bytes);

}  // namespace squawk::generation
