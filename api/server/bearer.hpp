// Reads the API key out of an `Authorization: Bearer <key>` header (spec section 5).
#pragma once

#include <optional>
#include <string_view>

namespace squawk::api {

// The key the header carries. Throws ApiError UNAUTHORIZED when the header is absent and
// INVALID_API_KEY when it is not a Bearer credential shaped like a Squawk key.
std::string_view bearer_token(std::optional<std::string_view> authorization);

}  // namespace squawk::api
