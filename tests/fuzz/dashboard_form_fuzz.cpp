// Dashboard form bodies, and what they become in a page: decoding yields bounded, valid UTF-8 or
// an ApiError, and no decoded value adds markup to the template it is shown in.
#include "api/dashboard/form.hpp"
#include "api/dashboard/template.hpp"
#include "common/core/error/api_error.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace squawk;
    const std::string_view body(reinterpret_cast<const char*>(data), size);
    try {
        const auto fields = api::dashboard::parse_form(body);
        if (fields.size() > api::dashboard::kMaxFormFields) __builtin_trap();
        for (const auto& [name, value] : fields) {
            if (!http::is_valid_utf8(name) || !http::is_valid_utf8(value)) __builtin_trap();
            const std::string page =
                api::dashboard::render("<p title=\"{{v}}\">{{#v}}{{.}}{{/v}}</p>", {{"v", value}});
            const auto count = [&](char c) { return std::count(page.begin(), page.end(), c); };
            if (count('<') != 2 || count('>') != 2 || count('"') != 2) __builtin_trap();
        }
    } catch (const ApiError&) {
    }
    return 0;
}
