#include "common/extensions/platforms/x/weighted_length.hpp"

#include <algorithm>
#include <optional>
#include <utility>

namespace squawk::social::x {
namespace {

// twitter-text v3's ranges of code points that weigh 1; every other one weighs 2.
bool is_light(char32_t c) {
    return c <= 0x10FF || (c >= 0x2000 && c <= 0x200D) || (c >= 0x2010 && c <= 0x201F) ||
           (c >= 0x2032 && c <= 0x2037);
}

// The code point starting at byte `at` and its size; a malformed byte is one U+FFFD, which is
// heavy, so text that is not UTF-8 is never counted short.
std::pair<char32_t, size_t> decode(std::string_view text, size_t at) {
    const auto lead = static_cast<unsigned char>(text[at]);
    const size_t size = lead < 0x80             ? 1
                        : (lead & 0xE0) == 0xC0 ? 2
                        : (lead & 0xF0) == 0xE0 ? 3
                        : (lead & 0xF8) == 0xF0 ? 4
                                                : 0;
    if (size == 0 || at + size > text.size()) return {0xFFFD, 1};
    char32_t c = size == 1 ? lead : lead & (0x7F >> size);
    for (size_t i = 1; i < size; ++i) {
        const auto next = static_cast<unsigned char>(text[at + i]);
        if ((next & 0xC0) != 0x80) return {0xFFFD, 1};
        c = (c << 6) | (next & 0x3F);
    }
    return {c, size};
}

// twitter-text starts no link right after an ASCII letter or digit, an at or hash sign (also
// their full-width forms), a dollar sign or a directional formatting character.
bool may_precede_link(char32_t c) {
    const bool alnum = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    return !alnum && c != '@' && c != '#' && c != '$' && c != 0xFF20 && c != 0xFF03 &&
           !(c >= 0x202A && c <= 0x202E);
}

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
    return text.size() >= prefix.size() &&
           std::equal(prefix.begin(), prefix.end(), text.begin(), [](char p, char t) {
               return p == (t >= 'A' && t <= 'Z' ? static_cast<char>(t - 'A' + 'a') : t);
           });
}

// Where the http(s) link starting at `at` ends (exclusive), if one does. It runs to whitespace or
// to the first non-ASCII character (X keeps some of those in a link, but counting them apart
// never comes to less); closing punctuation that ends a sentence is left out, as is a closing
// bracket the link did not open.
std::optional<size_t> link_end(std::string_view text, size_t at) {
    const auto rest = text.substr(at);
    const size_t scheme = starts_with_ignoring_case(rest, "https://")  ? 8
                          : starts_with_ignoring_case(rest, "http://") ? 7
                                                                       : 0;
    if (scheme == 0) return std::nullopt;
    size_t end = scheme;
    while (end < rest.size() && rest[end] > 0x20 && rest[end] < 0x7F) ++end;
    while (end > scheme) {
        const char last = rest[end - 1];
        const auto link = rest.substr(0, end);
        const bool unopened = last == ')' && std::count(link.begin(), link.end(), '(') <
                                                 std::count(link.begin(), link.end(), ')');
        if (!unopened && std::string_view(".,;:!?\"'").find(last) == std::string_view::npos) break;
        --end;
    }
    if (end == scheme) return std::nullopt;
    return at + end;
}

}  // namespace

size_t weighted_length(std::string_view text) {
    size_t length = 0;
    char32_t previous = ' ';
    size_t at = 0;
    while (at < text.size()) {
        if (may_precede_link(previous))
            if (const auto end = link_end(text, at)) {
                length += kLinkLength;
                previous = static_cast<unsigned char>(text[*end - 1]);
                at = *end;
                continue;
            }
        const auto [c, size] = decode(text, at);
        length += is_light(c) ? 1 : 2;
        previous = c;
        at += size;
    }
    return length;
}

}  // namespace squawk::social::x
