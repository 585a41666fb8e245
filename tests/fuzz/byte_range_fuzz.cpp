// The Range header of downloads on arbitrary bytes, against files of a few sizes: a partial
// answer always lies inside the file and within the cap.
#include "api/server/byte_range.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view header(reinterpret_cast<const char*>(data), size);
    constexpr long long kCap = 1000;
    for (const long long file_size : {0LL, 1LL, 999LL, 5000LL, 1LL << 40}) {
        const auto answer = squawk::api::resolve_byte_range(header, file_size, kCap);
        if (answer.kind != squawk::api::ByteRangeAnswer::Kind::partial) continue;
        if (answer.first < 0 || answer.first > answer.last || answer.last >= file_size ||
            answer.last - answer.first + 1 > kCap)
            std::abort();
    }
    return 0;
}
