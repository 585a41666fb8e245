// What Instagram takes, checked before any call: a post type's media (Instagram publishes nothing
// without an image or a video), its caption (2,200 characters, 30 hashtags) and the
// platform_options.instagram a post may carry.
#pragma once

#include "common/domain/social/connector.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace squawk::social::instagram {

inline constexpr size_t kMaxCaptionChars = 2200;
inline constexpr size_t kMaxHashtags = 30;
inline constexpr size_t kMinCarouselItems = 2;
inline constexpr size_t kMaxCarouselItems = 10;
inline constexpr size_t kMaxCollaborators = 3;

// The hashtags Instagram counts in `text`: a '#' starting a word.
size_t hashtag_count(std::string_view text);
// Why Instagram would refuse `text` for its hashtags; checked when a post is created and again
// before the call.
std::optional<std::string> hashtag_problem(std::string_view text);

// Why Instagram would refuse `message` as its post type, before anything is sent; nothing when it
// may be tried.
std::optional<std::string> post_problem(const Message& message);

// platform_options.instagram: share_to_feed (reels), thumb_offset (milliseconds into a video for
// its cover), collaborators (up to 3 usernames) and location_id (a Page id); none on stories.
OptionProblems check_options(const nlohmann::json& options, std::string_view post_type);

}  // namespace squawk::social::instagram
