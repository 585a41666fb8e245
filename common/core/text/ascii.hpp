// ASCII comparisons and trimming for protocol text (HTTP header names and values, schemes), where
// letter case and the spaces and tabs around a value carry no meaning.
#pragma once

#include <string_view>

namespace squawk::text {

constexpr bool is_blank(char c) {
    return c == ' ' || c == '\t';
}

// `s` without the spaces and tabs around it.
constexpr std::string_view trim_blanks(std::string_view s) {
    while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    return s;
}

constexpr char ascii_lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

constexpr bool equals_ignoring_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
    return true;
}

}  // namespace squawk::text
