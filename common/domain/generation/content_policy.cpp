#include "common/domain/generation/content_policy.hpp"

#include "common/core/text/ascii.hpp"

#include <cctype>

namespace squawk::generation {
namespace {

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

constexpr auto kGlobalSyntax = std::regex::ECMAScript | std::regex::icase;
constexpr auto kWorkspaceSyntax = kGlobalSyntax | std::regex_constants::__polynomial;

std::vector<std::string> folded_words(const std::vector<std::string>& words) {
    std::vector<std::string> out;
    for (const auto& w : words) out.push_back(text::ascii_lowercase(w));
    return out;
}

}  // namespace

std::optional<std::string> pattern_problem(const std::string& pattern) {
    if (pattern.empty()) return "must not be empty";
    if (pattern.size() > kMaxPolicyPatternChars)
        return "must be at most " + std::to_string(kMaxPolicyPatternChars) + " characters";
    try {
        std::regex(pattern, kWorkspaceSyntax);
    } catch (const std::regex_error& e) {
        return std::string("is not a valid pattern: ") + e.what();
    }
    return std::nullopt;
}

ContentPolicy::ContentPolicy(const config::ContentPolicySettings& settings)
    : words_(folded_words(settings.blocked_words)) {
    for (const auto& pattern : settings.blocked_patterns)
        patterns_.emplace_back(pattern, std::regex(pattern, kGlobalSyntax));
}

ContentPolicy::ContentPolicy(const ContentPolicyLists& lists) : words_(folded_words(lists.words)) {
    for (const auto& pattern : lists.patterns)
        patterns_.emplace_back(pattern, std::regex(pattern, kWorkspaceSyntax));
}

std::optional<std::string> ContentPolicy::violation(std::string_view text) const {
    const std::string folded = text::ascii_lowercase(text);
    for (const auto& word : words_)
        if (contains_word(folded, word)) return word;
    for (const auto& [source, pattern] : patterns_)
        if (std::regex_search(folded, pattern)) return source;
    return std::nullopt;
}

}  // namespace squawk::generation
