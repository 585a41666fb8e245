// libFuzzer target: the X-Profile-Id and X-Idempotency-Key header parsers on arbitrary bytes.
#include "api/server/request_headers.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (const auto id = squawk::api::parse_profile_id(text); id && *id <= 0) __builtin_trap();
    if (squawk::api::is_valid_idempotency_key(text) &&
        (text.empty() || text.size() > squawk::api::kMaxIdempotencyKeyBytes))
        __builtin_trap();
    return 0;
}
