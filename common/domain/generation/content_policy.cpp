#include "common/domain/generation/content_policy.hpp"

#include <algorithm>
#include <cctype>

namespace squawk::generation {
namespace {

char lower(char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

// Letters, digits and every byte of a multi-byte UTF-8 character continue a word.
bool is_word_byte(char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x80 || std::isalnum(u) || c == '_';
}

bool contains_word(const std::string& haystack, const std::string& word) {
    for (size_t at = haystack.find(word); at != std::string::npos;
         at = haystack.find(word, at + 1)) {
        const bool starts = at == 0 || !is_word_byte(haystack[at - 1]);
        const size_t end = at + word.size();
        const bool ends = end == haystack.size() || !is_word_byte(haystack[end]);
        if (starts && ends) return true;
    }
    return false;
}

}  // namespace

ContentPolicy::ContentPolicy(const config::ContentPolicySettings& settings) {
    for (const auto& word : settings.blocked_words) {
        std::string w = word;
        std::transform(w.begin(), w.end(), w.begin(), lower);
        words_.push_back(std::move(w));
    }
    for (const auto& pattern : settings.blocked_patterns)
        patterns_.emplace_back(pattern,
                               std::regex(pattern, std::regex::ECMAScript | std::regex::icase));
}

std::optional<std::string> ContentPolicy::violation(std::string_view text) const {
    std::string folded(text);
    std::transform(folded.begin(), folded.end(), folded.begin(), lower);
    for (const auto& word : words_)
        if (contains_word(folded, word)) return word;
    for (const auto& [source, pattern] : patterns_)
        if (std::regex_search(folded, pattern)) return source;
    return std::nullopt;
}

}  // namespace squawk::generation
