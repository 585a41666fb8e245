// The content policy generation applies to what clients send (prompts, topics, card text) before
// a job is accepted: a refused input is 422 CONTENT_POLICY_VIOLATION and is never charged.
#pragma once

#include "common/domain/generation/content_policy_settings.hpp"

#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::generation {

class ContentPolicy {
  public:
    explicit ContentPolicy(const config::ContentPolicySettings& settings);

    // The blocked word or pattern `text` contains, or nothing when it may be used.
    std::optional<std::string> violation(std::string_view text) const;

  private:
    std::vector<std::string> words_;  // lower case
    std::vector<std::pair<std::string, std::regex>> patterns_;
};

}  // namespace squawk::generation
