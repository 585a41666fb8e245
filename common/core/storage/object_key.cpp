#include "common/core/storage/object_key.hpp"

#include <string>

namespace squawk::storage {
namespace {

[[noreturn]] void refuse(std::string_view key, const char* why) {
    std::string shown(key.substr(0, 80));
    for (char& c : shown)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    throw InvalidObjectKey("object key '" + shown + "' " + why);
}

// Length of the well-formed UTF-8 sequence of two or more bytes starting at `at`, or 0. Overlong
// forms, surrogates and code points past U+10FFFF are not well formed.
size_t utf8_sequence(std::string_view text, size_t at) {
    const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(at);
    size_t length;
    unsigned char low = 0x80, high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) {
        length = 2;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3;
        if (lead == 0xe0) low = 0xa0;
        if (lead == 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4;
        if (lead == 0xf0) low = 0x90;
        if (lead == 0xf4) high = 0x8f;
    } else {
        return 0;
    }
    if (at + length > text.size()) return 0;
    if (byte(at + 1) < low || byte(at + 1) > high) return 0;
    for (size_t i = 2; i < length; ++i)
        if (byte(at + i) < 0x80 || byte(at + i) > 0xbf) return 0;
    return length;
}

void validate_segment(std::string_view key, std::string_view segment) {
    if (segment.empty()) refuse(key, "has an empty path segment");
    if (segment == "." || segment == "..") refuse(key, "has a '.' or '..' segment");
}

}  // namespace

void validate_object_key(std::string_view key) {
    if (key.empty()) refuse(key, "is empty");
    if (key.size() > kMaxObjectKeyBytes) refuse(key, "is longer than 1024 bytes");
    size_t segment_start = 0;
    for (size_t i = 0; i < key.size();) {
        const auto c = static_cast<unsigned char>(key[i]);
        if (c == '/') {
            validate_segment(key, key.substr(segment_start, i - segment_start));
            segment_start = ++i;
        } else if (c >= 0x80) {
            const size_t length = utf8_sequence(key, i);
            if (length == 0) refuse(key, "is not well-formed UTF-8");
            i += length;
        } else if (c < 0x20 || c == 0x7f || c == '\\') {
            refuse(key, "has a control character or a backslash");
        } else {
            ++i;
        }
    }
    validate_segment(key, key.substr(segment_start));
}

}  // namespace squawk::storage
