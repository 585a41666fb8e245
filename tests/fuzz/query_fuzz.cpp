// Query strings and path escapes: decoding yields bounded, valid UTF-8 or an ApiError.
#include "api/server/url_decode.hpp"
#include "common/core/error/api_error.hpp"
#include "common/core/http/form_encoding.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (const auto decoded = squawk::http::percent_decode(text, true))
        if (!squawk::http::is_valid_utf8(*decoded)) __builtin_trap();

    // The HTTP layer splits "a=b&c=d"; the fuzzer's bytes play both keys and values.
    std::vector<std::pair<std::string, std::string>> pairs;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t end = std::min(text.find('&', start), text.size());
        const std::string part = text.substr(start, end - start);
        const size_t eq = part.find('=');
        pairs.emplace_back(part.substr(0, eq), eq == std::string::npos ? "" : part.substr(eq + 1));
        start = end + 1;
    }
    try {
        for (const auto& [key, value] : squawk::api::decode_query(pairs))
            if (!squawk::http::is_valid_utf8(key) || !squawk::http::is_valid_utf8(value))
                __builtin_trap();
    } catch (const squawk::ApiError&) {
    }
    return 0;
}
