// The multipart/form-data reader on arbitrary bytes: the first line is the request's Content-Type,
// the rest its body. Every part it returns must lie inside the body.
#include "api/server/multipart_form.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

void check_inside(const squawk::api::ParsedForm& form, std::string_view body) {
    for (const auto& part : form.parts) {
        if (part.body.data() < body.data() ||
            part.body.data() + part.body.size() > body.data() + body.size())
            std::abort();
    }
    if (!form.error.empty() && !form.parts.empty()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const size_t newline = input.find('\n');
    const std::string_view content_type = input.substr(0, newline);
    const std::string_view body =
        newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);
    if (const auto boundary = squawk::api::form_boundary(content_type))
        check_inside(squawk::api::parse_form(body, *boundary), body);
    check_inside(squawk::api::parse_form(body, "b"), body);
    return 0;
}
