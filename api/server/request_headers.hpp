// Parsers of the request headers the guarantees read: X-Profile-Id and X-Idempotency-Key.
// Pure functions of untrusted text (each has a fuzz target).
#pragma once

#include <optional>
#include <string_view>

namespace squawk::api {

inline constexpr size_t kMaxIdempotencyKeyBytes = 255;

// A profile id: 1 to 18 decimal digits, no sign, no spaces, not zero.
std::optional<long long> parse_profile_id(std::string_view text);

// 1 to 255 visible ASCII characters (0x21 to 0x7E): any unique string a client picks.
bool is_valid_idempotency_key(std::string_view text);

}  // namespace squawk::api
