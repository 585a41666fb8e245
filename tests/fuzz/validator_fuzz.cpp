// The shared Validator on arbitrary JSON: typed getters either return a value within its bounds
// or record a problem, and finish() raises only VALIDATION_ERROR.
#include "api/server/validation.hpp"
#include "common/core/error/api_error.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto body = nlohmann::json::parse(data, data + size, nullptr, false);
    if (body.is_discarded() || !(body.is_object() || body.is_null())) return 0;
    static constexpr std::array<std::string_view, 3> kColours{"red", "green", "blue"};
    squawk::api::Validator v(body);
    const auto text = v.optional_string("text", 16);
    const auto count = v.optional_integer("count", -5, 5);
    v.optional_enum("colour", kColours);
    v.reject_unknown_fields();
    if (count && (*count < -5 || *count > 5)) __builtin_trap();
    if (text && text->size() > 16 * 4) __builtin_trap();
    try {
        v.finish();
    } catch (const squawk::ApiError& e) {
        if (e.code() != squawk::ErrorCode::ValidationError) __builtin_trap();
    }
    return 0;
}
