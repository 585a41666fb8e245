// The comments under an Instagram account's media on the Graph API, for the inbox: listed with
// their replies, answered, hidden and deleted, all with instagram_manage_comments. Instagram has
// no API for liking a comment.
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <string>
#include <utility>

namespace squawk::social::instagram {

class MediaComments {
  public:
    MediaComments(PlatformApi& api, std::string token) : api_(api), token_(std::move(token)) {}

    // A page of top-level comments under `media_id`, each followed by its replies.
    CommentListing list(const std::string& media_id, const std::string& cursor);
    Publication reply(const std::string& comment_id, const std::string& text);
    // Deleting a comment already gone succeeds.
    MessageChange moderate(const std::string& comment_id, Moderation moderation);

  private:
    PlatformApi& api_;
    std::string token_;
};

}  // namespace squawk::social::instagram
