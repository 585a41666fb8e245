// The request body rules every route shares: a size limit, JSON objects only, and the
// Content-Type a body must declare (spec 4 and 4.4 rule 6).
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string_view>

namespace squawk::api {

// Deeper documents are refused before parsing; no route takes anything near this deep.
inline constexpr int kMaxJsonDepth = 32;

// Throws PAYLOAD_TOO_LARGE when the body is over the configured limit.
void check_body_size(size_t body_bytes, long long max_body_bytes);

// True for "application/json", any letter case, with or without parameters such as charset.
bool is_json_media_type(std::string_view content_type);

// The body as a JSON object, or null when there is none or the method takes none (GET).
// Throws UNSUPPORTED_MEDIA_TYPE, or INVALID_REQUEST with details.reason for malformed bodies.
nlohmann::json parse_request_body(std::string_view method, std::string_view body,
                                  std::optional<std::string_view> content_type);

}  // namespace squawk::api
