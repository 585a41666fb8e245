#include "api/server/bearer.hpp"

#include "common/core/error/api_error.hpp"
#include "common/domain/auth/api_key.hpp"

#include <cctype>

namespace squawk::api {
namespace {

bool is_space(char c) {
    return c == ' ' || c == '\t';
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) !=
            std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

}  // namespace

std::string_view bearer_token(std::optional<std::string_view> authorization) {
    if (!authorization || trim(*authorization).empty()) throw ApiError(ErrorCode::Unauthorized);
    const std::string_view value = trim(*authorization);
    const size_t space = value.find_first_of(" \t");
    // The scheme is case-insensitive (RFC 7235); the key itself is not.
    if (space == std::string_view::npos || !equals_ignoring_case(value.substr(0, space), "bearer"))
        throw ApiError(ErrorCode::InvalidApiKey,
                       "The Authorization header must be 'Bearer <key>'.");
    const std::string_view key = trim(value.substr(space));
    if (!auth::looks_like_key(key)) throw ApiError(ErrorCode::InvalidApiKey);
    return key;
}

}  // namespace squawk::api
