// The multipart/form-data reader on arbitrary bytes: the first line is the request's Content-Type,
// the rest its body. However the body is cut into pieces, the reader must see the same form.
#include "tests/support/form_collector.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

bool same(const squawk::test::CollectedForm& a, const squawk::test::CollectedForm& b) {
    if (a.error != b.error || a.parts.size() != b.parts.size()) return false;
    for (size_t i = 0; i < a.parts.size(); ++i) {
        const auto& x = a.parts[i];
        const auto& y = b.parts[i];
        if (x.head.name != y.head.name || x.head.filename != y.head.filename ||
            x.head.content_type != y.head.content_type || x.bytes != y.bytes || x.ended != y.ended)
            return false;
    }
    return true;
}

void check(std::string_view body, std::string_view boundary, size_t piece) {
    const auto whole = squawk::test::read_form(body, boundary);
    if (!same(whole, squawk::test::read_form(body, boundary, piece))) std::abort();
    if (!same(whole, squawk::test::read_form(body, boundary, 1))) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const size_t newline = input.find('\n');
    const std::string_view content_type = input.substr(0, newline);
    const std::string_view body =
        newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);
    const size_t piece = size % 13 + 2;
    if (const auto boundary = squawk::api::form_boundary(content_type))
        check(body, *boundary, piece);
    check(body, "b", piece);
    return 0;
}
