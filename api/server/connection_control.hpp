// The Connection header of an answer: Pistache's default breaks HTTP/1.1 keep-alive, so every
// answer names the connection's fate itself.
#pragma once

#include <pistache/http.h>

namespace squawk::api {

// An HTTP/1.1 connection stays open unless the client asked to close it; an HTTP/1.0 one
// closes unless the client named its fate (Pistache answers "Connection: Close" then).
Pistache::Http::ConnectionControl connection_fate(const Pistache::Http::Request& request);

}  // namespace squawk::api
