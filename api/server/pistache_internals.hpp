// The two places where Squawk reaches into members Pistache keeps private, kept together so an
// upgrade of Pistache has one file to check.
#pragma once

#include <pistache/tcp.h>
#include <pistache/transport.h>

namespace squawk::api {

// Pistache hands a handler its transport through a private member only; a second handler that
// parses for the first must write through the same transport.
void use_transport(Pistache::Tcp::Handler& handler, Pistache::Tcp::Transport* transport);

// Whether bytes queued earlier are still to be written to `fd` once the transport's queue has
// been handed to the socket: an answer sent past them would overtake them.
bool holds_writes_for(Pistache::Tcp::Transport& transport, int fd);

}  // namespace squawk::api
