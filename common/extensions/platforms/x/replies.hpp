// The inbox's operations on the replies to an account's X posts: the conversation found by X's
// recent search (conversation_id; X searches the last 7 days, newest first, so each page is
// turned oldest first and the pages go back in time), a like (like.write), replies hidden or
// shown (tweet.moderate.write, in conversations the account started), and removing only the
// account's own posts.
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <string>

namespace squawk::social::x {

CommentListing conversation(PlatformApi& api, const Credentials& credentials,
                            const std::string& post_id, const std::string& cursor);

// POST /2/users/{id}/likes.
MessageChange like(PlatformApi& api, const Target& target, const std::string& post_id);

// PUT /2/tweets/{id}/hidden.
MessageChange set_hidden(PlatformApi& api, const Credentials& credentials,
                         const std::string& reply_id, bool hidden);

// Nothing when the post `post_id` is the account's own (its author_id), which alone it may
// delete; why not otherwise.
MessageChange own_post(PlatformApi& api, const Target& target, const std::string& post_id);

}  // namespace squawk::social::x
