// Percent-decoding of request paths and query strings. Everything decoded here is untrusted
// input, so results are bounded and must be valid UTF-8 before any handler sees them.
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

bool is_valid_utf8(std::string_view text);

// Decodes %XX escapes (and '+' as a space when `plus_is_space`, the form encoding of queries).
// Nothing when an escape is malformed or the result is not valid UTF-8.
std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space);

// Decodes the key/value pairs the HTTP layer split from the query string.
// Throws ApiError INVALID_REQUEST naming the parameter on a bad escape or an oversized part.
QueryParams decode_query(const std::vector<std::pair<std::string, std::string>>& raw);

}  // namespace squawk::api
