// The dashboard (issue 23): server-rendered HTML pages under /dashboard/ on the API's address,
// for people signed in with a cookie session instead of programs holding a key. squawk-api's one
// handler passes these paths here instead of through the /v1 route table; metrics, the access
// log and the transport are shared.
#pragma once

#include "api/server/request_context.hpp"

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace squawk::api {
struct Services;
}

namespace squawk::api::dashboard {

// "/dashboard" and everything under "/dashboard/".
bool owns(std::string_view path);

// What a page needs of an HTTP request, read by the server's handler.
struct PageRequest {
    std::string method;
    std::string path;                                            // the raw path, without the query
    std::vector<std::pair<std::string, std::string>> raw_query;  // as the HTTP layer split it
    std::map<std::string, std::string> cookies;
    std::string body;
    std::string address;  // the peer's IP address (the login throttle's key)
};

// The answer to a dashboard request: a page, an asset or a redirect, always with the security
// headers. Never throws: failures are answered as error pages. `route` is set to the page's path
// for metrics and the access log.
Reply serve(const PageRequest& request, Services& services, std::string& route);

}  // namespace squawk::api::dashboard
