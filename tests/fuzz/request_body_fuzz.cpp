// Request bodies: any bytes under any method and Content-Type either parse to a JSON object or
// raise an ApiError; nothing else escapes and nothing crashes.
#include "api/server/request_body.hpp"
#include "common/core/error/api_error.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static constexpr std::string_view kMethods[] = {"GET", "POST", "PUT", "PATCH", "DELETE"};
    static constexpr std::string_view kTypes[] = {
        "application/json", "APPLICATION/JSON; charset=utf-8", "text/plain", ""};
    if (size < 1) return 0;
    const std::string_view method = kMethods[data[0] % 5];
    const std::string_view type = kTypes[(data[0] / 5) % 4];
    const std::string_view body(reinterpret_cast<const char*>(data + 1), size - 1);
    try {
        const auto parsed = squawk::api::parse_request_body(
            method, body, type.empty() ? std::nullopt : std::optional<std::string_view>(type));
        if (!parsed.is_null() && !parsed.is_object()) __builtin_trap();
    } catch (const squawk::ApiError&) {
    }
    return 0;
}
