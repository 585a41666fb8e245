// The options an X post takes (platform_options.x): reply_to (the id of a post it answers),
// alt_texts (one per image) and, for post_type thread, thread: the follow-up parts, each posted
// as a reply to the one before. Checked when the post is created (check_options).
#pragma once

#include "common/domain/social/connector.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace squawk::social::x {

// X's own bound on a thread is 25 posts: the main post and 24 parts.
inline constexpr size_t kMaxThreadParts = 24;
inline constexpr size_t kMaxPartImages = 4;
// POST /2/media/metadata takes alt_text.text of at most 1,000 characters.
inline constexpr size_t kMaxAltTextChars = 1000;

// A post id as X gives them: a 64-bit number in decimal.
bool is_post_id(std::string_view text);

OptionProblems check_options(const nlohmann::json& options, std::string_view post_type);

// The thread's parts ({text, media_urls?, alt_texts?}) as check_options accepted them; empty for
// a post that is not a thread.
nlohmann::json thread_parts(const nlohmann::json& options, std::string_view post_type);
// The id of the post the post answers; "" when it answers none.
std::string reply_to_of(const nlohmann::json& options);

}  // namespace squawk::social::x
