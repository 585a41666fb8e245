// Posts published natively on a connected account, imported as `external` posts: one post and
// one published target per platform message, updated when the message was edited.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/social/account_repository.hpp"
#include "common/domain/social/connector.hpp"

namespace squawk::social {

enum class ImportOutcome {
    created,    // a new external post (post.external.created)
    updated,    // an imported message whose text changed (post.external.updated)
    unchanged,  // imported before, same text
    ours,       // a message Squawk published itself: not external
};

// Records `remote` for `account` in the caller's transaction, with its event.
ImportOutcome import_external_post(db::Session& s, const Account& account,
                                   const RemotePost& remote);

}  // namespace squawk::social
