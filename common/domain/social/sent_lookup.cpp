#include "common/domain/social/sent_lookup.hpp"

#include "common/core/text/ascii.hpp"

namespace squawk::social {
namespace {

// Platforms date a post by their own clocks, which may run behind ours.
constexpr std::chrono::minutes kClockSkew{1};

}  // namespace

std::optional<RemotePost> find_sent(Connector& connector, const Target& target,
                                    const Message& message, time::TimePoint sent_at) {
    const auto sent = text::trim_whitespace(message.text);
    if (sent.empty()) return std::nullopt;
    const auto listing = connector.list_recent(target);
    if (!listing || listing->failure) return std::nullopt;
    for (const auto& post : listing->posts)
        if (post.published_at >= sent_at - kClockSkew && text::trim_whitespace(post.text) == sent)
            return post;
    return std::nullopt;
}

}  // namespace squawk::social
