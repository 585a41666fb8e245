#include "api/server/header_limits.hpp"

#include "common/core/error/api_error.hpp"

#include <sstream>
#include <string_view>

namespace squawk::api {

void check_header_sizes(const Pistache::Http::Header::Collection& headers) {
    size_t total = 0;
    const auto count = [&](size_t line) {
        if (line > kMaxHeaderLineBytes)
            throw ApiError(ErrorCode::HeadersTooLarge, {},
                           {{"max_header_line_bytes", kMaxHeaderLineBytes}});
        total += line;
    };
    for (const auto& [name, raw] : headers.rawList()) count(name.size() + 2 + raw.value().size());
    // Pistache keeps the headers it knows only parsed: their size is what they write.
    thread_local std::ostringstream value;
    for (const auto& header : headers.list()) {
        value.str({});
        header->write(value);
        count(std::string_view(header->name()).size() + 2 + value.view().size());
    }
    if (total > kMaxHeaderBlockBytes)
        throw ApiError(ErrorCode::HeadersTooLarge, {},
                       {{"max_header_bytes", kMaxHeaderBlockBytes}});
}

}  // namespace squawk::api
