#include "common/domain/social/sent_lookup.hpp"

#include <cctype>

namespace squawk::social {
namespace {

// Platforms date a post by their own clocks, which may run behind ours.
constexpr std::chrono::minutes kClockSkew{1};

// `text` as platforms may give it back: each link as one marker (X lists its t.co address in
// place of the one posted), the entities X escapes (&amp; &lt; &gt;) as their characters, and
// every run of whitespace as one space, none at the ends.
std::string comparable(std::string_view text) {
    std::string out;
    size_t i = 0;
    while (i < text.size()) {
        const auto rest = text.substr(i);
        if (rest.starts_with("https://") || rest.starts_with("http://")) {
            out += '\x01';
            while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        } else if (rest.starts_with("&amp;")) {
            out += '&';
            i += 5;
        } else if (rest.starts_with("&lt;") || rest.starts_with("&gt;")) {
            out += rest[1] == 'l' ? '<' : '>';
            i += 4;
        } else if (std::isspace(static_cast<unsigned char>(text[i]))) {
            if (!out.empty() && out.back() != ' ') out += ' ';
            ++i;
        } else {
            out += text[i++];
        }
    }
    if (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

}  // namespace

std::optional<RemotePost> find_sent(Connector& connector, const Target& target,
                                    const Message& message, time::TimePoint sent_at) {
    const auto sent = comparable(message.text);
    if (sent.empty()) return std::nullopt;
    const auto listing = connector.list_recent(target);
    if (!listing || listing->failure) return std::nullopt;
    for (const auto& post : listing->posts)
        if (post.published_at >= sent_at - kClockSkew && comparable(post.text) == sent) return post;
    return std::nullopt;
}

}  // namespace squawk::social
