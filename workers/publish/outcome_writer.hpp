// Writes the publishing fibers' outcomes in batches: each target's outcome, the posts they
// settle with their post.* events, and the next occurrence of each settled recycled post.
#pragma once

#include "common/domain/social/post.hpp"
#include "common/domain/social/publish_repository.hpp"
#include "workers/runtime/transaction_batcher.hpp"

#include <optional>
#include <vector>

namespace squawk::workers::publish {

// What one outcome wrote besides itself: the next occurrence of the post it settled, which the
// fiber enqueues once the transaction committed.
struct Settlement {
    std::optional<social::Post> recycled;
};

std::vector<Settlement> write_outcomes(db::Session& s,
                                       const std::vector<social::TargetOutcome>& outcomes);

using OutcomeWriter = TransactionBatcher<social::TargetOutcome, Settlement>;

}  // namespace squawk::workers::publish
