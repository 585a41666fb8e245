#include "api/server/bearer.hpp"

#include "common/core/error/api_error.hpp"
#include "common/core/text/ascii.hpp"
#include "common/domain/auth/api_key.hpp"

namespace squawk::api {

std::string_view bearer_token(std::optional<std::string_view> authorization) {
    if (!authorization || text::trim_blanks(*authorization).empty())
        throw ApiError(ErrorCode::Unauthorized);
    const std::string_view value = text::trim_blanks(*authorization);
    const size_t space = value.find_first_of(" \t");
    // The scheme is case-insensitive (RFC 7235); the key itself is not.
    if (space == std::string_view::npos ||
        !text::equals_ignoring_case(value.substr(0, space), "bearer"))
        throw ApiError(ErrorCode::InvalidApiKey,
                       "The Authorization header must be 'Bearer <key>'.");
    const std::string_view key = text::trim_blanks(value.substr(space));
    if (!auth::looks_like_key(key)) throw ApiError(ErrorCode::InvalidApiKey);
    return key;
}

}  // namespace squawk::api
