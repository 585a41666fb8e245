#include "common/extensions/platforms/linkedin/little_text.hpp"

namespace squawk::social::linkedin {
namespace {

// The little grammar's reserved characters but '#' (escape_little_text says why).
constexpr std::string_view kReserved = "|{}@[]()<>\\*_~";
constexpr std::string_view kHashtagTemplate = "{hashtag|";

}  // namespace

std::string escape_little_text(std::string_view text) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    for (const char c : text) {
        if (kReserved.find(c) != std::string_view::npos) out += '\\';
        out += c;
    }
    return out;
}

std::string plain_text(std::string_view commentary) {
    std::string out;
    for (size_t i = 0; i < commentary.size(); ++i) {
        const char c = commentary[i];
        if (c == '\\' && i + 1 < commentary.size()) {
            out += commentary[++i];
            continue;
        }
        // @[Name](urn:li:...): the name is what the feed shows.
        if (c == '@' && commentary.substr(i + 1, 1) == "[") {
            const size_t close = commentary.find("](", i + 2);
            const size_t end =
                close == std::string_view::npos ? close : commentary.find(')', close);
            if (end != std::string_view::npos) {
                out += commentary.substr(i + 2, close - i - 2);
                i = end;
                continue;
            }
        }
        // {hashtag|#|tag}: the sign and the tag.
        if (commentary.substr(i, kHashtagTemplate.size()) == kHashtagTemplate) {
            const size_t sign = i + kHashtagTemplate.size();
            const size_t bar = commentary.find('|', sign);
            const size_t end = bar == std::string_view::npos ? bar : commentary.find('}', bar);
            if (end != std::string_view::npos) {
                // The sign may be escaped (\#), as in the template LinkedIn documents.
                const auto hash = commentary.substr(sign, bar - sign);
                out += hash.starts_with('\\') ? hash.substr(1) : hash;
                out += commentary.substr(bar + 1, end - bar - 1);
                i = end;
                continue;
            }
        }
        out += c;
    }
    return out;
}

}  // namespace squawk::social::linkedin
