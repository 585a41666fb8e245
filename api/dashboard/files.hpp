// The dashboard's templates (templates/*.html) and assets (assets/*), compiled into the binary by
// cmake/embed_text.cmake so what is served is what was built.
#pragma once

#include "api/openapi/openapi_document.hpp"

#include <optional>
#include <span>
#include <string_view>

namespace squawk::embedded {

std::span<const Fragment> dashboard_files();

}  // namespace squawk::embedded

namespace squawk::api::dashboard {

// The text of the embedded file `name` ("login.html", "dashboard.css"), or nothing.
std::optional<std::string_view> embedded_file(std::string_view name);

}  // namespace squawk::api::dashboard
