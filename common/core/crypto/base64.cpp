#include "common/core/crypto/base64.hpp"

#include <array>
#include <cstdint>

namespace squawk::crypto {
namespace {

using Values = std::array<int8_t, 256>;

constexpr Values values_of(std::string_view alphabet) {
    Values values{};
    values.fill(-1);
    for (size_t i = 0; i < alphabet.size(); ++i)
        values[static_cast<unsigned char>(alphabet[i])] = static_cast<int8_t>(i);
    return values;
}

constexpr Values kStandard =
    values_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
constexpr Values kUrlSafe =
    values_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_");

}  // namespace

std::optional<std::string> base64_decode(std::string_view text, Base64Alphabet alphabet) {
    const Values& values = alphabet == Base64Alphabet::standard ? kStandard : kUrlSafe;
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
        const int value = values[static_cast<unsigned char>(c)];
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

}  // namespace squawk::crypto
