// The content policy generation applies to what clients send (prompts, topics, card text) before
// a job is accepted: the global lists and the workspace's own; a refused input is 422
// CONTENT_POLICY_VIOLATION and is never charged.
#pragma once

#include "common/domain/generation/content_policy_settings.hpp"

#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::generation {

// A workspace's own blocked words and patterns (PUT /content-policy), checked beside the global
// lists of [content_policy].
struct ContentPolicyLists {
    std::vector<std::string> words;
    std::vector<std::string> patterns;
    bool empty() const { return words.empty() && patterns.empty(); }
};

// Bounds of a workspace's lists. Patterns come from clients and run on the API's threads against
// every generate call's text, so they are few and short.
inline constexpr size_t kMaxPolicyWords = 200;
inline constexpr size_t kMaxPolicyWordChars = 100;
inline constexpr size_t kMaxPolicyPatterns = 20;
inline constexpr size_t kMaxPolicyPatternChars = 100;

// Why `pattern` cannot be a workspace's blocked pattern (it does not compile as a case-insensitive
// ECMAScript expression without back-references, as workspace patterns are run), or nothing.
std::optional<std::string> pattern_problem(const std::string& pattern);

class ContentPolicy {
  public:
    // The global lists: ECMAScript patterns as std::regex runs them.
    explicit ContentPolicy(const config::ContentPolicySettings& settings);
    // A workspace's lists (each pattern passed pattern_problem()). Its patterns run in libstdc++'s
    // polynomial mode: a client's pattern can neither backtrack exponentially nor recurse as deep
    // as the text is long.
    explicit ContentPolicy(const ContentPolicyLists& lists);

    // The blocked word or pattern `text` contains, or nothing when it may be used.
    std::optional<std::string> violation(std::string_view text) const;
    bool empty() const { return words_.empty() && patterns_.empty(); }

  private:
    std::vector<std::string> words_;  // lower case
    std::vector<std::pair<std::string, std::regex>> patterns_;
};

}  // namespace squawk::generation
