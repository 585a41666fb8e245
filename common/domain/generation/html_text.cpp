#include "common/domain/generation/html_text.hpp"

#include "common/core/text/ascii.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

namespace squawk::generation {
namespace {

// Elements whose content is never shown as text.
constexpr std::array<std::string_view, 8> kHiddenElements{
    "script", "style", "noscript", "template", "svg", "iframe", "nav", "select"};

// Elements that start or end a line of their own.
constexpr std::array<std::string_view, 34> kBlockElements{
    "p",       "div",     "br",      "li",         "ul",      "ol",         "h1",
    "h2",      "h3",      "h4",      "h5",         "h6",      "tr",         "table",
    "section", "article", "header",  "footer",     "aside",   "blockquote", "pre",
    "hr",      "main",    "figure",  "figcaption", "dl",      "dt",         "dd",
    "form",    "title",   "address", "details",    "summary", "caption"};

struct NamedReference {
    std::string_view name;
    std::string_view text;
};

constexpr std::array<NamedReference, 20> kNamedReferences{{
    {"amp", "&"},         {"lt", "<"},         {"gt", ">"},         {"quot", "\""},
    {"apos", "'"},        {"nbsp", " "},       {"mdash", "\u2014"}, {"ndash", "\u2013"},
    {"hellip", "\u2026"}, {"lsquo", "\u2018"}, {"rsquo", "\u2019"}, {"ldquo", "\u201C"},
    {"rdquo", "\u201D"},  {"laquo", "\u00AB"}, {"raquo", "\u00BB"}, {"copy", "\u00A9"},
    {"reg", "\u00AE"},    {"trade", "\u2122"}, {"euro", "\u20AC"},  {"middot", "\u00B7"},
}};

constexpr size_t kLongestReference = 10;  // "&#x10FFFF;" without the '&'

bool is_name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == ':' || c == '_';
}

void append_utf8(std::string& out, char32_t cp) {
    if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = 0xFFFD;
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

// Builds the output while collapsing whitespace: pending separators are written only before
// the next visible character, so the text never starts or ends with one.
class Collapser {
  public:
    explicit Collapser(size_t max_bytes) : max_bytes_(max_bytes) {}

    void space() {
        if (!out_.empty() && pending_ == Pending::none) pending_ = Pending::space;
    }
    void line_break() {
        if (!out_.empty()) pending_ = Pending::line;
    }
    void text(std::string_view visible) {
        for (const char c : visible) character(c);
    }
    void character(char c) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\n' || c == '\r') return space();
        if (byte < 0x20 || byte == 0x7F || c == ' ') return space();
        if (full_) return;
        if (pending_ != Pending::none) {
            out_.push_back(pending_ == Pending::line ? '\n' : ' ');
            pending_ = Pending::none;
        }
        out_.push_back(c);
        if (out_.size() > max_bytes_) full_ = true;
    }
    bool full() const { return full_; }

    std::string finish() && {
        if (out_.size() > max_bytes_) {
            size_t end = max_bytes_;
            // Back to the start of the character the cap cut through.
            while (end > 0 && (static_cast<unsigned char>(out_[end]) & 0xC0) == 0x80) --end;
            out_.resize(end);
            while (!out_.empty() && (out_.back() == ' ' || out_.back() == '\n')) out_.pop_back();
        }
        return std::move(out_);
    }

  private:
    enum class Pending { none, space, line };
    size_t max_bytes_;
    std::string out_;
    Pending pending_ = Pending::none;
    bool full_ = false;
};

// Decodes the reference after '&' at `at`; returns how many bytes after '&' it used (0: none,
// the '&' stands for itself).
size_t decode_reference(std::string_view html, size_t at, std::string& decoded) {
    const size_t end = html.find(';', at);
    if (end == std::string_view::npos || end == at || end - at > kLongestReference) return 0;
    const std::string_view body = html.substr(at, end - at);
    if (body[0] == '#') {
        const bool hex = body.size() > 1 && (body[1] == 'x' || body[1] == 'X');
        const std::string_view digits = body.substr(hex ? 2 : 1);
        uint32_t cp = 0;
        const auto [rest, ec] =
            std::from_chars(digits.data(), digits.data() + digits.size(), cp, hex ? 16 : 10);
        if (digits.empty() || rest != digits.data() + digits.size()) return 0;
        if (ec != std::errc()) cp = 0xFFFD;
        append_utf8(decoded, cp);
        return body.size() + 1;
    }
    for (const auto& reference : kNamedReferences)
        if (reference.name == body) {
            decoded = reference.text;
            return body.size() + 1;
        }
    return 0;
}

template <size_t N>
bool listed(const std::array<std::string_view, N>& names, std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

// Where the element `name` opened before `from` ends: past its closing tag, or the end.
size_t past_closing_tag(std::string_view html, size_t from, std::string_view name) {
    for (size_t at = html.find("</", from); at != std::string_view::npos;
         at = html.find("</", at + 2)) {
        if (!text::starts_with_ignoring_case(html.substr(at + 2), name)) continue;
        const size_t after = at + 2 + name.size();
        if (after < html.size() && is_name_char(html[after])) continue;
        const size_t close = html.find('>', after);
        return close == std::string_view::npos ? html.size() : close + 1;
    }
    return html.size();
}

}  // namespace

std::string html_text(std::string_view html, size_t max_bytes) {
    Collapser out(max_bytes);
    size_t i = 0;
    while (i < html.size() && !out.full()) {
        const char c = html[i];
        if (c == '&') {
            std::string decoded;
            const size_t used = decode_reference(html, i + 1, decoded);
            if (used == 0) {
                out.character('&');
                ++i;
            } else {
                out.text(decoded);
                i += used + 1;
            }
            continue;
        }
        if (c != '<') {
            out.character(c);
            ++i;
            continue;
        }
        if (html.substr(i, 4) == "<!--") {
            const size_t end = html.find("-->", i + 4);
            i = end == std::string_view::npos ? html.size() : end + 3;
            continue;
        }
        const bool closing = i + 1 < html.size() && html[i + 1] == '/';
        const size_t name_start = i + (closing ? 2 : 1);
        if (name_start < html.size() && (html[name_start] == '!' || html[name_start] == '?')) {
            const size_t end = html.find('>', name_start);
            i = end == std::string_view::npos ? html.size() : end + 1;
            continue;
        }
        size_t name_end = name_start;
        while (name_end < html.size() && is_name_char(html[name_end])) ++name_end;
        if (name_end == name_start || !std::isalpha(static_cast<unsigned char>(html[name_start]))) {
            out.character('<');  // a lone '<' in text
            ++i;
            continue;
        }
        const std::string name =
            text::ascii_lowercase(html.substr(name_start, name_end - name_start));
        const size_t tag_end = html.find('>', name_end);
        i = tag_end == std::string_view::npos ? html.size() : tag_end + 1;
        const bool self_closing =
            tag_end != std::string_view::npos && tag_end > 0 && html[tag_end - 1] == '/';
        if (!closing && !self_closing && listed(kHiddenElements, name)) {
            i = past_closing_tag(html, i, name);
            out.space();
        } else if (listed(kBlockElements, name)) {
            out.line_break();
        } else {
            // Inline elements (a, span, em) join words, but cells and images separate them.
            if (name == "td" || name == "th" || name == "img" || name == "input") out.space();
        }
    }
    return std::move(out).finish();
}

std::string plain_text(std::string_view text, size_t max_bytes) {
    Collapser out(max_bytes);
    size_t newlines = 0;
    for (const char c : text) {
        if (out.full()) break;
        if (c == '\n') {
            // A blank line separates paragraphs; single line breaks are wrapping.
            if (++newlines == 2) out.line_break();
            if (newlines == 1) out.space();
            continue;
        }
        if (c != '\r' && c != ' ' && c != '\t') newlines = 0;
        out.character(c);
    }
    return std::move(out).finish();
}

}  // namespace squawk::generation
