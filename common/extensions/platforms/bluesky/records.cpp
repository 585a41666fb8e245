#include "common/extensions/platforms/bluesky/records.hpp"

namespace squawk::social::bluesky {

std::optional<PostAddress> parse_post_uri(std::string_view uri) {
    constexpr std::string_view kScheme = "at://";
    if (!uri.starts_with(kScheme)) return std::nullopt;
    uri.remove_prefix(kScheme.size());
    const auto slash = uri.find('/');
    if (slash == std::string_view::npos || slash == 0) return std::nullopt;
    const auto repo = uri.substr(0, slash);
    auto path = uri.substr(slash + 1);
    if (!path.starts_with(kPosts) || path.substr(kPosts.size()).size() < 2 ||
        path[kPosts.size()] != '/')
        return std::nullopt;
    const auto rkey = path.substr(kPosts.size() + 1);
    if (rkey.size() > 512 || rkey.find('/') != std::string_view::npos) return std::nullopt;
    return PostAddress{std::string(repo), std::string(rkey)};
}

std::string post_url(const std::string& handle, const std::string& rkey) {
    return "https://bsky.app/profile/" + handle + "/post/" + rkey;
}

}  // namespace squawk::social::bluesky
