#include "common/extensions/platforms/bluesky/page_meta.hpp"

#include "common/core/text/ascii.hpp"
#include "common/domain/generation/html_text.hpp"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <map>
#include <optional>

namespace squawk::social::bluesky {
namespace {

constexpr size_t kMaxTitleBytes = 300;
constexpr size_t kMaxDescriptionBytes = 1000;

// Where `needle` (lower case) starts in `text` from `from` on, in any letter case.
size_t find_ignoring_case(std::string_view text, std::string_view needle, size_t from) {
    for (size_t at = from; at + needle.size() <= text.size(); ++at)
        if (text::equals_ignoring_case(text.substr(at, needle.size()), needle)) return at;
    return std::string_view::npos;
}

bool is_tag_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

// The length of the UTF-8 sequence at the start of `bytes`, or 0 when it is not one (truncated,
// overlong, a surrogate, past U+10FFFF).
size_t utf8_sequence(std::string_view bytes) {
    const auto byte = [&](size_t i) { return static_cast<unsigned char>(bytes[i]); };
    const unsigned char lead = byte(0);
    const size_t length = lead < 0x80           ? 1
                          : (lead >> 5) == 0x6  ? 2
                          : (lead >> 4) == 0xE  ? 3
                          : (lead >> 3) == 0x1E ? 4
                                                : 0;
    if (length == 0 || length > bytes.size()) return 0;
    if (length == 1) return 1;
    char32_t code = lead & (0x7F >> length);
    for (size_t i = 1; i < length; ++i) {
        if ((byte(i) & 0xC0) != 0x80) return 0;
        code = (code << 6) | (byte(i) & 0x3F);
    }
    constexpr char32_t kShortest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < kShortest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
    return length;
}

// `bytes` with every byte that is not part of a UTF-8 character replaced by U+FFFD: a page in
// another encoding must not make the post record invalid JSON.
std::string valid_utf8(std::string_view bytes) {
    std::string out;
    out.reserve(bytes.size());
    while (!bytes.empty()) {
        const size_t length = utf8_sequence(bytes);
        if (length == 0) {
            out += "\xEF\xBF\xBD";
            bytes.remove_prefix(1);
        } else {
            out.append(bytes.substr(0, length));
            bytes.remove_prefix(length);
        }
    }
    return out;
}

std::string text_of(std::string_view html, size_t max_bytes) {
    return generation::html_text(valid_utf8(html), max_bytes);
}

// The attributes of the tag whose name ends at `at`, by lower-case name, and where it ends.
std::map<std::string, std::string> attributes(std::string_view html, size_t& at) {
    std::map<std::string, std::string> found;
    while (at < html.size() && html[at] != '>') {
        if (is_tag_space(html[at]) || html[at] == '/') {
            ++at;
            continue;
        }
        const size_t name_start = at;
        while (at < html.size() && !is_tag_space(html[at]) && html[at] != '=' && html[at] != '>' &&
               html[at] != '/')
            ++at;
        const std::string name = text::ascii_lowercase(html.substr(name_start, at - name_start));
        while (at < html.size() && is_tag_space(html[at])) ++at;
        if (at >= html.size() || html[at] != '=') {
            found.emplace(name, "");
            continue;
        }
        ++at;
        while (at < html.size() && is_tag_space(html[at])) ++at;
        size_t value_start = at;
        size_t value_end = 0;
        if (at < html.size() && (html[at] == '"' || html[at] == '\'')) {
            value_start = at + 1;
            value_end = std::min(html.find(html[at], value_start), html.size());
            at = std::min(value_end + 1, html.size());
        } else {
            while (at < html.size() && !is_tag_space(html[at]) && html[at] != '>') ++at;
            value_end = at;
        }
        found.emplace(name, std::string(html.substr(value_start, value_end - value_start)));
    }
    return found;
}

}  // namespace

PageMeta read_page_meta(std::string_view html) {
    const size_t head_end =
        std::min(find_ignoring_case(html, "</head", 0), find_ignoring_case(html, "<body", 0));
    html = html.substr(0, head_end);
    std::map<std::string, std::string> meta;  // property or name -> content, the first of each
    std::optional<std::string> title;
    size_t at = html.find('<');
    while (at != std::string_view::npos && at + 1 < html.size()) {
        if (html.compare(at, 4, "<!--") == 0) {
            const size_t end = html.find("-->", at + 4);
            at = end == std::string_view::npos ? end : html.find('<', end + 3);
            continue;
        }
        size_t name_end = at + 1;
        while (name_end < html.size() && std::isalnum(static_cast<unsigned char>(html[name_end])))
            ++name_end;
        const std::string name = text::ascii_lowercase(html.substr(at + 1, name_end - at - 1));
        size_t tag_end = name_end;
        const auto attrs = attributes(html, tag_end);
        if (name == "meta") {
            const auto key =
                attrs.contains("property") ? attrs.find("property") : attrs.find("name");
            const auto content = attrs.find("content");
            if (key != attrs.end() && content != attrs.end())
                meta.emplace(text::ascii_lowercase(key->second), content->second);
        } else if (name == "title" || name == "script" || name == "style") {
            // Their content is text, never tags: a script may well write "<meta".
            const size_t close = find_ignoring_case(html, "</" + name, tag_end);
            const size_t start = std::min(tag_end + 1, html.size());
            if (name == "title" && !title)
                title = std::string(html.substr(start, std::min(close, html.size()) - start));
            tag_end = close;
        }
        at = tag_end == std::string_view::npos ? tag_end : html.find('<', tag_end + 1);
    }
    const auto first = [&](std::initializer_list<const char*> keys) -> std::string {
        for (const char* key : keys)
            if (const auto found = meta.find(key); found != meta.end() && !found->second.empty())
                return found->second;
        return "";
    };
    PageMeta page;
    page.title = text_of(first({"og:title"}), kMaxTitleBytes);
    if (page.title.empty() && title) page.title = text_of(*title, kMaxTitleBytes);
    page.description = text_of(first({"og:description", "description"}), kMaxDescriptionBytes);
    return page;
}

}  // namespace squawk::social::bluesky
