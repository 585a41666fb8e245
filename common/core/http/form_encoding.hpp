// Percent-encoding and decoding for paths, query strings and application/x-www-form-urlencoded
// bodies.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace squawk::http {

using FormFields = std::vector<std::pair<std::string, std::string>>;

// Every byte but RFC 3986's unreserved characters (A-Z a-z 0-9 - . _ ~) as %XX (upper-case hex,
// as S3's signatures need); '/' is kept too when `keep_slash` (paths).
std::string percent_encode(std::string_view text, bool keep_slash = false);
// name=value pairs joined by '&', each side percent-encoded.
std::string form_encode(const FormFields& fields);

bool is_valid_utf8(std::string_view text);
// Decodes %XX escapes (and '+' as a space when `plus_is_space`, the form encoding of queries).
// Nothing when an escape is malformed or the result is not valid UTF-8.
std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space);

}  // namespace squawk::http
