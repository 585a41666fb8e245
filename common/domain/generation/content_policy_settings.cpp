#include "common/domain/generation/content_policy_settings.hpp"

#include "common/core/config/section_schema.hpp"

#include <regex>
#include <sstream>

namespace squawk::config {
namespace {

std::string trimmed(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos) return {};
    return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

// The non-blank entries of `text` split at `separator`.
std::vector<std::string> entries(const std::string& text, char separator) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string entry; std::getline(in, entry, separator);)
        if (auto t = trimmed(entry); !t.empty()) out.push_back(std::move(t));
    return out;
}

}  // namespace

SectionSchema<ContentPolicySettings> content_policy_schema() {
    using S = ContentPolicySettings;
    return {{{"blocked_words",
              [](S& s, const Scalar& value, const std::string& path) {
                  s.blocked_words = entries(as_text(value, path), ',');
              }},
             {"blocked_patterns",
              [](S& s, const Scalar& value, const std::string& path) {
                  s.blocked_patterns = entries(as_text(value, path), '\n');
                  for (const auto& pattern : s.blocked_patterns) {
                      try {
                          std::regex(pattern, std::regex::ECMAScript | std::regex::icase);
                      } catch (const std::regex_error& e) {
                          bad_value(path, "'" + pattern + "' is not a valid pattern: " + e.what());
                      }
                  }
              }}},
            {}};
}

}  // namespace squawk::config
