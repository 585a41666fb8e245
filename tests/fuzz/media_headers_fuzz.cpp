// Media probe header parsers on arbitrary bytes: Content-Type, Content-Range and Content-Length
// values as any media host may send them.
#include "common/domain/social/media_probe.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view value(reinterpret_cast<const char*>(data), size);
    squawk::social::media_type(value);
    squawk::social::content_range_total(value);
    squawk::social::content_length(value);
    return 0;
}
