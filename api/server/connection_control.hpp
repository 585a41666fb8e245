// The Connection header of an answer: Pistache's default breaks HTTP/1.1 keep-alive, so every
// answer names the connection's fate itself.
#pragma once

#include <pistache/http.h>

namespace squawk::api {

void replace_connection(Pistache::Http::ResponseWriter& response,
                        Pistache::Http::ConnectionControl control);

// Pistache answers "Connection: Close" unless the request named a Connection header; an HTTP/1.1
// connection stays open unless the client asked to close it.
void set_connection(const Pistache::Http::Request& request,
                    Pistache::Http::ResponseWriter& response);

}  // namespace squawk::api
