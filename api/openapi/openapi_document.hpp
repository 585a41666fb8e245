// The OpenAPI document: one JSON fragment per resource family in api/openapi/, compiled into the
// binary by cmake/embed_text.cmake and merged once with the platform registry's schemas
// (platform_schemas.hpp), so what is served is what was built and tested.
#pragma once

#include <span>
#include <string_view>

namespace squawk::embedded {

struct Fragment {
    std::string_view name;  // file name, for errors
    std::string_view text;
};

std::span<const Fragment> openapi_fragments();

}  // namespace squawk::embedded

namespace squawk::api {

// The merged document, serialised. Throws std::logic_error when two fragments define the same
// path, operation or schema (a build mistake the unit tests catch).
const std::string& openapi_document();

}  // namespace squawk::api
