// Decoding of request query strings (percent-decoding itself is http::percent_decode).
// Everything decoded here is untrusted input, so results are bounded and must be valid UTF-8
// before any handler sees them.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace squawk::api {

using QueryParams = std::map<std::string, std::string>;

inline constexpr size_t kMaxQueryKeyBytes = 64;
inline constexpr size_t kMaxQueryValueBytes = 2048;
inline constexpr size_t kMaxQueryParams = 32;

// Decodes the key/value pairs the HTTP layer split from the query string.
// Throws ApiError INVALID_REQUEST naming the parameter on a bad escape or an oversized part.
QueryParams decode_query(const std::vector<std::pair<std::string, std::string>>& raw);

}  // namespace squawk::api
