// The inbox's operations on the comments under an account's YouTube videos (youtube.force-ssl).
// Threads are read newest first by page, each page turned oldest first, a thread's replies past
// the few it carries read through comments.list; the published threads first, then those held
// for review (hidden), whose pages' cursors start with "held:". YouTube's
// threads are one deep, so a reply to a reply answers its top-level comment. Hiding holds a
// comment for review (heldForReview), showing publishes it again; removing deletes the account's
// own comment and rejects anyone else's, as YouTube Studio's Remove does. The API has no likes of
// comments.
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <string>

namespace squawk::social::youtube {

CommentListing comment_threads(PlatformApi& api, const Credentials& credentials,
                               const std::string& video_id, const std::string& cursor);

Publication reply_to(PlatformApi& api, const Credentials& credentials,
                     const std::string& comment_id, const std::string& text);

MessageChange moderate(PlatformApi& api, const Target& target, const std::string& comment_id,
                       Moderation moderation);

}  // namespace squawk::social::youtube
