// The route table of squawk-api: every path, its method, who may call it and its handler.
// The OpenAPI document must list exactly these operations with the same x-scopes (unit-tested).
#pragma once

#include "api/server/route.hpp"

#include <span>

namespace squawk::api {

std::span<const Route> route_table();

}  // namespace squawk::api
