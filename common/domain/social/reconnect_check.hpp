// The one refusal for a post that would reach an account the platform no longer accepts (its
// token, a refresh of it or a permission refused): 403 CONNECTION_SCOPE_MISSING with
// reconnect_required, before anything is stored or any platform is called.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/social/post.hpp"

#include <string>
#include <vector>

namespace squawk::social {

// Throws the refusal naming `account_ids` (public ids) unless there are none.
void refuse_accounts_to_reconnect(const std::vector<std::string>& account_ids);
// The same for those of the targets' accounts whose token the platform refused.
void refuse_accounts_to_reconnect(db::Session& s, const std::vector<PostTarget>& targets);

}  // namespace squawk::social
