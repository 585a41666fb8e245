// Fuzzes the text extraction of a fetched web page with arbitrary bytes: it must never crash or
// hang, and its text stays within the cap, starts and ends with a visible character and has no
// control character or doubled separator, whatever the page holds.
#include "common/domain/generation/html_text.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

void check(const std::string& text, size_t cap) {
    if (text.size() > cap) std::abort();
    if (text.empty()) return;
    if (text.front() == ' ' || text.front() == '\n' || text.back() == ' ' || text.back() == '\n')
        std::abort();
    for (size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c < 0x20 && c != '\n') || c == 0x7F) std::abort();
        if (i > 0 && (c == ' ' || c == '\n') && (text[i - 1] == ' ' || text[i - 1] == '\n'))
            std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    // The first byte picks the cap, so cuts land everywhere, multi-byte characters included.
    const size_t cap = data[0] * 16;
    const std::string_view page(reinterpret_cast<const char*>(data + 1), size - 1);
    check(squawk::generation::html_text(page, cap), cap);
    check(squawk::generation::plain_text(page, cap), cap);
    return 0;
}
