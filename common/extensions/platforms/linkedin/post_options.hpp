// The options a LinkedIn post takes (platform_options.linkedin): who sees it (visibility PUBLIC or
// CONNECTIONS), the title shown on a document or a linked article, and the organization page it
// is posted as (its id or URN) instead of the member.
#pragma once

#include "common/domain/social/connector.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace squawk::social::linkedin {

inline constexpr size_t kMaxTitleChars = 400;

OptionProblems check_options(const nlohmann::json& options, std::string_view post_type);

// The post's visibility as the Posts API names it: PUBLIC unless the options say CONNECTIONS.
std::string visibility_of(const nlohmann::json& options);
// The options' title, else `fallback`.
std::string title_of(const nlohmann::json& options, const std::string& fallback);
// The URN of the organization the options post as (urn:li:organization:<id>); nothing: the
// member posts. The options passed check_options.
std::optional<std::string> organization_of(const nlohmann::json& options);

}  // namespace squawk::social::linkedin
