#include "common/domain/social/post.hpp"

namespace squawk::social {

std::string message_text(const std::string& content, const std::optional<std::string>& link) {
    if (!link || content.find(*link) != std::string::npos) return content;
    return content + (content.empty() ? "" : "\n") + *link;
}

}  // namespace squawk::social
