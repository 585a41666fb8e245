#include "api/server/header_limits.hpp"

#include "common/core/error/api_error.hpp"

namespace squawk::api {

void check_header_sizes(std::span<const size_t> line_bytes) {
    size_t total = 0;
    for (const size_t line : line_bytes) {
        if (line > kMaxHeaderLineBytes)
            throw ApiError(ErrorCode::HeadersTooLarge, {},
                           {{"max_header_line_bytes", kMaxHeaderLineBytes}});
        total += line;
    }
    if (total > kMaxHeaderBlockBytes)
        throw ApiError(ErrorCode::HeadersTooLarge, {},
                       {{"max_header_bytes", kMaxHeaderBlockBytes}});
}

}  // namespace squawk::api
