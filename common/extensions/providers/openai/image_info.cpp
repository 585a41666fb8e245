#include "common/extensions/providers/openai/image_info.hpp"

#include <cstdint>

namespace squawk::providers::openai {
namespace {

using generation::ImageFormat;

uint32_t big_endian(std::string_view bytes, size_t at, size_t count) {
    uint32_t value = 0;
    for (size_t i = 0; i < count; ++i)
        value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
    return value;
}

std::optional<ImageInfo> sized(ImageFormat format, uint32_t width, uint32_t height) {
    // PNG allows up to 2^31-1; nothing a service draws comes near the int range.
    if (width == 0 || height == 0 || width > 0x7FFFFFFF || height > 0x7FFFFFFF) return std::nullopt;
    return ImageInfo{format, static_cast<int>(width), static_cast<int>(height)};
}

// The IHDR chunk must come first, right after the signature.
std::optional<ImageInfo> png_info(std::string_view bytes) {
    constexpr std::string_view signature("\x89PNG\r\n\x1a\n", 8);
    if (bytes.size() < 24 || !bytes.starts_with(signature) || bytes.substr(12, 4) != "IHDR")
        return std::nullopt;
    return sized(ImageFormat::png, big_endian(bytes, 16, 4), big_endian(bytes, 20, 4));
}

bool is_start_of_frame(unsigned char marker) {
    // C4 (Huffman tables), C8 (reserved) and CC (arithmetic conditioning) share the range.
    return marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
}

// Walks the marker segments up to the first frame header; the scan data after SOS is not read.
std::optional<ImageInfo> jpeg_info(std::string_view bytes) {
    if (bytes.size() < 4 || big_endian(bytes, 0, 2) != 0xFFD8) return std::nullopt;
    size_t at = 2;
    while (at + 1 < bytes.size()) {
        if (static_cast<unsigned char>(bytes[at]) != 0xFF) return std::nullopt;
        while (at + 1 < bytes.size() && static_cast<unsigned char>(bytes[at + 1]) == 0xFF) ++at;
        if (at + 1 >= bytes.size()) return std::nullopt;
        const auto marker = static_cast<unsigned char>(bytes[at + 1]);
        at += 2;
        if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue;  // no length
        if (marker == 0xD9 || marker == 0xDA || at + 2 > bytes.size()) return std::nullopt;
        const uint32_t length = big_endian(bytes, at, 2);
        if (length < 2 || at + length > bytes.size()) return std::nullopt;
        if (is_start_of_frame(marker)) {
            if (length < 7) return std::nullopt;
            return sized(ImageFormat::jpeg, big_endian(bytes, at + 5, 2),
                         big_endian(bytes, at + 3, 2));
        }
        at += length;
    }
    return std::nullopt;
}

}  // namespace

std::optional<ImageInfo> image_info(std::string_view bytes) {
    if (auto png = png_info(bytes)) return png;
    return jpeg_info(bytes);
}

}  // namespace squawk::providers::openai
