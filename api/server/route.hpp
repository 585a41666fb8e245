// One row of the route table: method, path pattern, who may call it, and the handler.
// The table itself lives in api/handlers/routes.cpp; tests walk it against the OpenAPI document.
#pragma once

#include "api/server/request_context.hpp"

#include <string_view>

namespace squawk::api {

struct Services;

// Who may call a route: anyone, any valid key, or a key holding one scope.
struct Access {
    enum class Kind { open, any_key, scope };
    Kind kind = Kind::open;
    std::string_view scope;

    static constexpr Access open_to_all() { return {Kind::open, {}}; }
    static constexpr Access any_key() { return {Kind::any_key, {}}; }
    static constexpr Access needs(std::string_view s) { return {Kind::scope, s}; }
};

using HandlerFn = Reply (*)(const RequestContext&, Services&);

struct Route {
    std::string_view method;   // "GET", "POST", ...
    std::string_view pattern;  // "/v1/jobs/{job_id}"
    Access access;
    HandlerFn handler;
};

}  // namespace squawk::api
