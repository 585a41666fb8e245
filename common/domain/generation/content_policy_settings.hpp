// What generation refuses to take as input, for every workspace. Section [content_policy]; the
// rows are in content_policy_settings.cpp.
#pragma once

#include "common/core/config/config_fwd.hpp"

#include <string>
#include <vector>

namespace squawk::config {

struct ContentPolicySettings {
    // Matched case-insensitively as whole words ("blocked_words", comma-separated).
    std::vector<std::string> blocked_words;
    // ECMAScript regular expressions, matched case-insensitively anywhere ("blocked_patterns",
    // one per line).
    std::vector<std::string> blocked_patterns;
};

SectionSchema<ContentPolicySettings> content_policy_schema();

}  // namespace squawk::config
