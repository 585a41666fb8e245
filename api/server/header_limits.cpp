#include "api/server/header_limits.hpp"

#include "common/core/error/api_error.hpp"

namespace squawk::api {

void check_header_sizes(const RequestHead& head) {
    size_t total = 0;
    for (const auto& [name, value] : head.fields) {
        const size_t line = name.size() + 2 + value.size();
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
