// The options a Threads post takes (platform_options.threads): reply_to, the id of a Threads post
// it answers. Checked when the post is created (check_options).
#pragma once

#include "common/domain/social/connector.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace squawk::social::threads {

OptionProblems check_options(const nlohmann::json& options, std::string_view post_type);

// The id of the post the post answers; "" when it answers none.
std::string reply_to_of(const nlohmann::json& options);

}  // namespace squawk::social::threads
