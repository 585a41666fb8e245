// The inbox's operations on the replies under an account's Threads posts (threads_read_replies,
// threads_manage_replies): the whole conversation read flat, oldest first, and replies hidden or
// shown. Threads hides a top-level reply with everything under it and lets no nested reply be
// hidden alone; it has no likes through its API.
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <string>

namespace squawk::social::threads {

// A page of the replies at any depth under the post `post_id` (GET /{id}/conversation), from
// `cursor` (empty: the first), with the cursor of the next page when there is one.
CommentListing conversation(PlatformApi& api, const std::string& token, const std::string& post_id,
                            const std::string& cursor);

// Nothing when the reply `reply_id` is the account's own (is_reply_owned_by_me), which alone it may
// delete; why not otherwise. Threads answers deleting anyone else's reply as deleting an object
// that is not there, which would pass for done.
MessageChange own_reply(PlatformApi& api, const std::string& token, const std::string& reply_id);

// POST /{reply-id}/manage_reply with hide true or false.
MessageChange set_hidden(PlatformApi& api, const std::string& token, const std::string& reply_id,
                         bool hidden);

}  // namespace squawk::social::threads
