// The cooldown and posting-cap checks and send mark of every publishing fiber of a process, decided
// in batches: the accounts are locked in id order, their sends counted once, the admitted targets
// marked in one UPDATE, and the sends of a batch count against the requests after them.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/social/posting_caps.hpp"
#include "workers/runtime/transaction_batcher.hpp"

#include <optional>
#include <string>
#include <vector>

namespace squawk::workers::publish {

struct SendRequest {
    long long target_id = 0;
    long long account_id = 0;
    std::string allowance;  // social::allowance_of the platform and the media
    bool sandbox = false;   // checked against the caps but never marked: nothing is sent
};

// Neither set when the send may go (its mark is committed).
struct SendDecision {
    std::optional<social::CapReached> cap;          // the account reached a posting cap
    std::optional<time::TimePoint> cooldown_until;  // the platform asked to wait until then
};

std::vector<SendDecision> admit_sends(db::Session& s, const std::vector<SendRequest>& batch);

using SendGate = TransactionBatcher<SendRequest, SendDecision>;

}  // namespace squawk::workers::publish
