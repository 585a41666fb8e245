// Resources whose ids are integers (posts, queues): a path id that is not one names nothing.
#pragma once

#include "api/server/request_context.hpp"

namespace squawk::api {

// The positive integer path parameter `name`; 404 RESOURCE_NOT_FOUND for anything else.
long long integer_path_id(const RequestContext& ctx, const std::string& name);

}  // namespace squawk::api
