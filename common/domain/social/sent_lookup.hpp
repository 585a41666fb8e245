// After an unknown outcome (the request went out and no answer was recorded), the platform's own
// list of the account's recent posts tells whether the message went out: found, it is recorded
// as published instead of failing the target, and it is never sent a second time.
#pragma once

#include "common/domain/social/connector.hpp"

#include <optional>

namespace squawk::social {

// The account's post with the message's text published since `sent_at` (less a minute for the
// platform's clock); nothing when the platform lists no recent posts, did not answer, or shows no
// such post. Texts compare as platforms give them back: links as links whatever their address
// (X's t.co), X's escaped entities as characters, whitespace runs as one space. A message
// without text cannot be recognised.
std::optional<RemotePost> find_sent(Connector& connector, const Target& target,
                                    const Message& message, time::TimePoint sent_at);

}  // namespace squawk::social
