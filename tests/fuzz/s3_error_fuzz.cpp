// Fuzzes the reader of S3 error bodies, which come from whatever answers at the configured
// endpoint: any bytes must read as an error or as nothing, within its size limits, never crash.
#include "common/core/storage/s3_error_body.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    if (const auto body = squawk::storage::parse_s3_error(input)) {
        if (body->code.empty() || body->code.size() > 256 || body->message.size() > 1024)
            std::abort();
    }
    return 0;
}
