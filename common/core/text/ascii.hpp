// ASCII comparisons and trimming for protocol text (HTTP header names and values, schemes), where
// letter case and the spaces and tabs around a value carry no meaning.
#pragma once

#include <string>
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

// `s` without the spaces, tabs and line breaks around it.
constexpr std::string_view trim_whitespace(std::string_view s) {
    const auto white = [](char c) { return is_blank(c) || c == '\r' || c == '\n'; };
    while (!s.empty() && white(s.front())) s.remove_prefix(1);
    while (!s.empty() && white(s.back())) s.remove_suffix(1);
    return s;
}

// RFC 9110 tchar: what a header field name or a media type's parts are made of.
constexpr bool is_http_token_char(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
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

constexpr bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
    return text.size() >= prefix.size() &&
           equals_ignoring_case(text.substr(0, prefix.size()), prefix);
}

// `s` with its ASCII letters lower-cased; every other byte, UTF-8 included, as it was.
inline std::string ascii_lowercase(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = ascii_lower(c);
    return out;
}

}  // namespace squawk::text
