#include "common/core/storage/s3_error_body.hpp"

#include "common/core/text/ascii.hpp"

#include <charconv>

namespace squawk::storage {
namespace {

constexpr size_t kMaxCodeBytes = 256;
constexpr size_t kMaxMessageBytes = 1024;

// The text between <name> and </name> after `from`, or nothing. S3 never puts attributes or
// nested elements in these.
std::optional<std::string_view> element_text(std::string_view xml, std::string_view name) {
    const std::string open = "<" + std::string(name) + ">";
    const std::string close = "</" + std::string(name) + ">";
    const size_t start = xml.find(open);
    if (start == std::string_view::npos) return std::nullopt;
    const size_t text_start = start + open.size();
    const size_t stop = xml.find(close, text_start);
    if (stop == std::string_view::npos) return std::nullopt;
    return xml.substr(text_start, stop - text_start);
}

void append_utf8(std::string& out, unsigned long code_point) {
    if (code_point < 0x80) {
        out += static_cast<char>(code_point);
    } else if (code_point < 0x800) {
        out += static_cast<char>(0xc0 | (code_point >> 6));
        out += static_cast<char>(0x80 | (code_point & 0x3f));
    } else if (code_point < 0x10000) {
        out += static_cast<char>(0xe0 | (code_point >> 12));
        out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (code_point & 0x3f));
    } else {
        out += static_cast<char>(0xf0 | (code_point >> 18));
        out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3f));
        out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (code_point & 0x3f));
    }
}

// The characters of the entity named between '&' and ';', or nothing for one XML does not define.
std::optional<std::string> entity(std::string_view name) {
    if (name == "amp") return "&";
    if (name == "lt") return "<";
    if (name == "gt") return ">";
    if (name == "quot") return "\"";
    if (name == "apos") return "'";
    if (name.size() < 2 || name[0] != '#') return std::nullopt;
    const bool hexadecimal = name[1] == 'x' || name[1] == 'X';
    const std::string_view digits = name.substr(hexadecimal ? 2 : 1);
    unsigned long code_point = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(),
                                              code_point, hexadecimal ? 16 : 10);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() ||
        code_point == 0 || code_point > 0x10ffff || (code_point >= 0xd800 && code_point <= 0xdfff))
        return std::nullopt;
    std::string out;
    append_utf8(out, code_point);
    return out;
}

// Entities decoded; an unknown or unterminated one is kept as written. At most `limit` bytes.
std::string decode(std::string_view text, size_t limit) {
    std::string out;
    for (size_t i = 0; i < text.size() && out.size() < limit;) {
        if (text[i] == '&') {
            const size_t semicolon = text.find(';', i + 1);
            if (semicolon != std::string_view::npos && semicolon - i <= 10) {
                if (auto decoded = entity(text.substr(i + 1, semicolon - i - 1))) {
                    out += *decoded;
                    i = semicolon + 1;
                    continue;
                }
            }
        }
        out += text[i++];
    }
    if (out.size() > limit) out.resize(limit);
    return out;
}

}  // namespace

std::optional<S3ErrorBody> parse_s3_error(std::string_view xml) {
    const auto error = element_text(xml, "Error");
    if (!error) return std::nullopt;
    const auto code = element_text(*error, "Code");
    if (!code || text::trim_whitespace(*code).empty()) return std::nullopt;
    S3ErrorBody body;
    body.code = decode(text::trim_whitespace(*code), kMaxCodeBytes);
    if (const auto message = element_text(*error, "Message"))
        body.message = decode(text::trim_whitespace(*message), kMaxMessageBytes);
    return body;
}

}  // namespace squawk::storage
