// What a Facebook Page post of each type may carry, checked before any call: a reel is one video
// of 3 to 90 seconds, a story one photo or one video of at most 60 seconds, a post text, photos
// or one video.
#pragma once

#include "common/domain/social/connector.hpp"

#include <optional>
#include <string>

namespace squawk::social::facebook {

inline constexpr size_t kMaxTextChars = 63'206;
inline constexpr size_t kMaxPhotos = 10;

// Why `message` cannot go out as its post_type; nothing when it can.
std::optional<std::string> post_problem(const Message& message);

}  // namespace squawk::social::facebook
