#include "api/server/request_headers.hpp"

#include <algorithm>

namespace squawk::api {

std::optional<long long> parse_profile_id(std::string_view text) {
    if (text.empty() || text.size() > 18) return std::nullopt;
    long long value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
    }
    if (value == 0) return std::nullopt;
    return value;
}

bool is_valid_idempotency_key(std::string_view text) {
    return !text.empty() && text.size() <= kMaxIdempotencyKeyBytes &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x21 && c <= 0x7E; });
}

}  // namespace squawk::api
