// The options a Bluesky post takes (platform_options.bluesky): alt_texts, one per image in the
// order of media_urls, sent as the alt of each image of its app.bsky.embed.images.
#pragma once

#include "common/domain/social/connector.hpp"

#include <nlohmann/json.hpp>

#include <string_view>

namespace squawk::social::bluesky {

// The lexicon gives alt no bound; the Bluesky app stops its descriptions at 2,000 graphemes,
// held here to 2,000 characters (a grapheme is one or more of them).
inline constexpr size_t kMaxAltTextChars = 2000;

OptionProblems check_options(const nlohmann::json& options, std::string_view post_type);

}  // namespace squawk::social::bluesky
