// Authorization headers: a key comes out only from a well-formed Bearer credential; anything else
// is an ApiError.
#include "api/server/bearer.hpp"
#include "common/core/error/api_error.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view header(reinterpret_cast<const char*>(data), size);
    try {
        const auto key = squawk::api::bearer_token(header);
        if (key.empty() || key.size() > header.size()) __builtin_trap();
    } catch (const squawk::ApiError&) {
    }
    return 0;
}
