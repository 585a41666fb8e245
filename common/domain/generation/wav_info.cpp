#include "common/domain/generation/wav_info.hpp"

#include <algorithm>

namespace squawk::generation {
namespace {

uint32_t le32(std::string_view b, size_t at) {
    return static_cast<uint32_t>(static_cast<unsigned char>(b[at])) |
           static_cast<uint32_t>(static_cast<unsigned char>(b[at + 1])) << 8 |
           static_cast<uint32_t>(static_cast<unsigned char>(b[at + 2])) << 16 |
           static_cast<uint32_t>(static_cast<unsigned char>(b[at + 3])) << 24;
}

uint16_t le16(std::string_view b, size_t at) {
    return static_cast<uint16_t>(static_cast<unsigned char>(b[at]) |
                                 static_cast<unsigned char>(b[at + 1]) << 8);
}

}  // namespace

std::optional<WavInfo> parse_wav(std::string_view bytes) {
    if (bytes.size() < 12 || bytes.substr(0, 4) != "RIFF" || bytes.substr(8, 4) != "WAVE")
        return std::nullopt;
    WavInfo info;
    bool have_format = false;
    // 64-bit positions: a hostile chunk length cannot wrap around.
    uint64_t pos = 12;
    while (pos + 8 <= bytes.size()) {
        const std::string_view id = bytes.substr(pos, 4);
        const uint64_t length = le32(bytes, pos + 4);
        const uint64_t body = pos + 8;
        if (id == "fmt ") {
            if (length < 16 || body + 16 > bytes.size()) return std::nullopt;
            info.channels = le16(bytes, body + 2);
            info.sample_rate = le32(bytes, body + 4);
            info.byte_rate = le32(bytes, body + 8);
            info.bits_per_sample = le16(bytes, body + 14);
            have_format = true;
        } else if (id == "data") {
            if (!have_format || info.byte_rate == 0) return std::nullopt;
            info.data_bytes = std::min<uint64_t>(length, bytes.size() - body);
            info.duration_seconds =
                static_cast<double>(info.data_bytes) / static_cast<double>(info.byte_rate);
            return info;
        }
        pos = body + length + (length & 1);  // chunks are padded to even sizes
    }
    return std::nullopt;
}

}  // namespace squawk::generation
