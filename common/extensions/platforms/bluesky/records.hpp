// The records Squawk reads and writes in an account's repository: posts by their at:// address,
// and their bsky.app links.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace squawk::social::bluesky {

inline constexpr std::string_view kPosts = "app.bsky.feed.post";

// Where a post lives: "at://<did>/app.bsky.feed.post/<rkey>", as publish() returns it.
struct PostAddress {
    std::string repo;
    std::string rkey;
};

std::optional<PostAddress> parse_post_uri(std::string_view uri);

std::string post_url(const std::string& handle, const std::string& rkey);

}  // namespace squawk::social::bluesky
