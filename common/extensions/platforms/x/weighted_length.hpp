// How long X counts a post's text (twitter-text's weighted length, configuration v3): a link
// counts as the t.co link X puts in its place, a character of a heavy script as two.
#pragma once

#include <cstddef>
#include <string_view>

namespace squawk::social::x {

inline constexpr size_t kMaxWeightedLength = 280;
// What every link counts, whatever its own length: the t.co link X replaces it with.
inline constexpr size_t kLinkLength = 23;

// `text` (UTF-8) as X counts it: each http(s) link 23; each code point of Latin, Greek, Cyrillic
// and the other scripts up to U+10FF, and of general punctuation's spaces, dashes and quotes, 1;
// every other code point (CJK, emoji) 2. X first composes the text (NFC) and counts an emoji
// sequence as one emoji; this counts code points as written, which never comes to less. X also
// links bare domains (squawk.io) with a known top-level domain; those count here as written, so
// near the limit X may still refuse such a post itself.
size_t weighted_length(std::string_view text);

}  // namespace squawk::social::x
