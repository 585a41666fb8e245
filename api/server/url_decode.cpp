#include "api/server/url_decode.hpp"

#include "common/core/error/api_error.hpp"

namespace squawk::api {
namespace {

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

ApiError bad_query(const std::string& reason) {
    return ApiError(ErrorCode::InvalidRequest, "The query string is malformed.",
                    {{"reason", reason}});
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
    size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        size_t extra = 0;
        unsigned min = 0;
        unsigned cp = 0;
        if (c < 0x80) {
            ++i;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            extra = 1, min = 0x80, cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            extra = 2, min = 0x800, cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            extra = 3, min = 0x10000, cp = c & 0x07;
        } else {
            return false;
        }
        if (i + extra >= text.size()) return false;
        for (size_t k = 1; k <= extra; ++k) {
            const auto cc = static_cast<unsigned char>(text[i + k]);
            if ((cc & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (cc & 0x3F);
        }
        // Overlong forms, UTF-16 surrogates and values past U+10FFFF are not UTF-8.
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += extra + 1;
    }
    return true;
}

std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '%') {
            if (i + 2 >= text.size()) return std::nullopt;
            const int hi = hex_value(text[i + 1]);
            const int lo = hex_value(text[i + 2]);
            if (hi < 0 || lo < 0) return std::nullopt;
            out.push_back(static_cast<char>(hi * 16 + lo));
            i += 2;
        } else if (c == '+' && plus_is_space) {
            out.push_back(' ');
        } else {
            out.push_back(c);
        }
    }
    if (!is_valid_utf8(out)) return std::nullopt;
    return out;
}

QueryParams decode_query(const std::vector<std::pair<std::string, std::string>>& raw) {
    if (raw.size() > kMaxQueryParams) throw bad_query("too many query parameters");
    QueryParams params;
    for (const auto& [raw_key, raw_value] : raw) {
        auto key = percent_decode(raw_key, true);
        if (!key || key->empty() || key->size() > kMaxQueryKeyBytes)
            throw bad_query("a query parameter name is malformed or too long");
        auto value = percent_decode(raw_value, true);
        if (!value) throw bad_query("query parameter '" + *key + "' is not correctly encoded");
        if (value->size() > kMaxQueryValueBytes)
            throw bad_query("query parameter '" + *key + "' is too long");
        params.insert_or_assign(std::move(*key), std::move(*value));
    }
    return params;
}

}  // namespace squawk::api
