#include "common/extensions/providers/openai/base64.hpp"

#include <array>
#include <cstdint>

namespace squawk::providers::openai {
namespace {

constexpr std::array<int8_t, 256> kValues = [] {
    std::array<int8_t, 256> values{};
    values.fill(-1);
    constexpr std::string_view alphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < alphabet.size(); ++i)
        values[static_cast<unsigned char>(alphabet[i])] = static_cast<int8_t>(i);
    return values;
}();

}  // namespace

std::optional<std::string> base64_decode(std::string_view text) {
    if (text.size() % 4 == 0 && text.ends_with("=="))
        text.remove_suffix(2);
    else if (text.size() % 4 == 0 && text.ends_with('='))
        text.remove_suffix(1);
    // One leftover character carries only six bits: no byte ends there.
    if (text.size() % 4 == 1) return std::nullopt;
    std::string bytes;
    bytes.reserve(text.size() / 4 * 3 + 2);
    uint32_t bits = 0;
    int held = 0;
    for (const char c : text) {
        const int value = kValues[static_cast<unsigned char>(c)];
        if (value < 0) return std::nullopt;
        bits = (bits << 6) | static_cast<uint32_t>(value);
        held += 6;
        if (held >= 8) {
            held -= 8;
            bytes.push_back(static_cast<char>((bits >> held) & 0xFF));
        }
    }
    return bytes;
}

}  // namespace squawk::providers::openai
