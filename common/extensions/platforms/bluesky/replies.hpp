// The inbox's operations on the replies under an account's posts. A comment on Bluesky is a post
// answering another (its record names the thread's first post, the root, and the post it
// answers, the parent). The author of a thread's root may hide replies from it (the root's
// threadgate lists them in hiddenReplies) but never delete other people's.
#pragma once

#include "common/extensions/platforms/bluesky/session.hpp"

#include <string>

namespace squawk::social::bluesky {

// The replies under the post `uri` at any depth, oldest first; those its threadgate hides are
// marked hidden.
CommentListing list_replies(PdsSession& session, const std::string& uri);

// The `reply` member of a post answering the post or reply `uri`: the thread's root and the
// parent, each {uri, cid}; or why not.
Answer reply_refs(PdsSession& session, const std::string& uri);

// Likes the post or reply `uri`: an app.bsky.feed.like record of the account.
MessageChange like(PdsSession& session, const std::string& uri);

// Hides or shows the reply `uri` in its thread through the threadgate of the thread's root, which
// must be the account's.
MessageChange set_hidden(PdsSession& session, const std::string& uri, bool hidden);

}  // namespace squawk::social::bluesky
