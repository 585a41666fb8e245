// Tests that read the event outbox itself need someone the events are for: the outbox writes only
// events a webhook endpoint can receive. This endpoint subscribes to every event and is failing,
// so it holds its deliveries and nothing is ever sent.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "tests/support/stack.hpp"

namespace squawk::testing {

void hold_every_event(db::Session& s, long long workspace_id);
void hold_every_event(Stack& stack, long long workspace_id);

}  // namespace squawk::testing
