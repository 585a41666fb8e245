// A Page's inbox on the Graph API: the comments under its posts (listed, answered in public or
// privately, liked, hidden, deleted) and Messenger conversations (the Send API's messages and
// typing indicator). Comments need pages_read_user_content and pages_manage_engagement; messages
// need pages_messaging.
#pragma once

#include "common/core/http/form_encoding.hpp"
#include "common/domain/social/platform_api.hpp"

#include <string>

namespace squawk::social::facebook {

// Messenger's bounds: a quick reply's or button's title, and a button template's text.
inline constexpr size_t kMaxChoiceTitleChars = 20;
inline constexpr size_t kMaxButtonTextChars = 640;

class PageInbox {
  public:
    PageInbox(PlatformApi& api, const Target& page) : api_(api), page_(page) {}

    CommentListing comments(const std::string& post_id, const std::string& cursor);
    Publication reply(const std::string& comment_id, const std::string& text);
    // A Messenger message to the comment's author, once per comment.
    Publication reply_privately(const std::string& comment_id, const std::string& text);
    MessageChange like(const std::string& comment_id);
    MessageChange moderate(const std::string& comment_id, Moderation moderation);
    // The text (with its quick replies, or as a button template) first, then each image as an
    // attachment of its own, as Messenger carries one attachment per message. The publication
    // names the last message sent.
    Publication send(const DirectMessage& message);
    MessageChange typing(const std::string& recipient_id);

  private:
    Answer post_form(const std::string& rest, const http::FormFields& fields);
    // POST /{page}/messages to `recipient` ({id} or {comment_id}) carrying `message`.
    Answer message_to(const nlohmann::json& recipient, const nlohmann::json& message);

    PlatformApi& api_;
    const Target& page_;
};

}  // namespace squawk::social::facebook
