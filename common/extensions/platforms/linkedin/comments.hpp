// The comments under a member's LinkedIn posts (socialActions/comments) and the member's likes
// of them (reactions). A comment is named by its URN, urn:li:comment:(<activity>,<id>), which
// carries the activity its calls go through. LinkedIn nests comments one level deep: the listing
// reads each comment's replies after it. The member acts as themself, on a page's post too;
// LinkedIn offers no hiding of a comment, so only removal is a moderation here.
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <string>

namespace squawk::social::linkedin {

// The comments under `post_urn`, oldest first, each followed by its replies; `cursor` is the
// offset of the next page of top-level comments (empty: the first).
CommentListing list_post_comments(PlatformApi& api, const Target& target,
                                  const std::string& post_urn, const std::string& cursor);
// A reply to the comment `comment_urn`, as the member; its id is the new comment's URN.
Publication reply_to(PlatformApi& api, const Target& target, const std::string& comment_urn,
                     const Message& message);
// The member's LIKE of the comment; liking it again succeeds.
MessageChange like(PlatformApi& api, const Target& target, const std::string& comment_urn);
// Deletes the comment (the member's own, or any under the member's post); deleting it again
// succeeds.
MessageChange delete_comment(PlatformApi& api, const Target& target,
                             const std::string& comment_urn);

}  // namespace squawk::social::linkedin
