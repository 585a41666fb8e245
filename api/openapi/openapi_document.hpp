// The OpenAPI document (api/openapi/openapi.json), compiled into the binary by
// cmake/embed_text.cmake so that what is served is what was built and tested.
#pragma once

#include <string_view>

namespace squawk::embedded {
std::string_view openapi_document();
}  // namespace squawk::embedded
