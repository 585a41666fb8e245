// The Connection header of an answer: HTTP/1.1 keeps a connection open unless the client asks
// to close it, HTTP/1.0 closes it unless the client asks to keep it (RFC 9112 9.3).
#pragma once

#include "api/server/request_head.hpp"

#include <pistache/http_defs.h>

namespace squawk::api {

Pistache::Http::ConnectionControl connection_fate(const RequestHead& head);

}  // namespace squawk::api
