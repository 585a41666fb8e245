#include "common/domain/generation/markdown_html.hpp"

#include "common/core/text/markup_escape.hpp"

#include <algorithm>
#include <vector>

namespace squawk::generation {
namespace {

void escape_into(std::string& out, std::string_view text) {
    for (const char c : text) {
        if (const auto entity = squawk::text::markup_entity(c); !entity.empty())
            out += entity;
        else
            out += c;
    }
}

bool is_safe_link(std::string_view url) {
    return url.starts_with("https://") || url.starts_with("http://");
}

// The input is a model's and unbounded: emphasis nested deeper than this, and markers whose close
// is further away than kMaxSpan bytes, are shown as text, which keeps the work linear.
constexpr int kMaxNesting = 8;
constexpr size_t kMaxSpan = 1024;

// Where `what` next occurs in `text` after `from`, within kMaxSpan bytes.
size_t find_near(std::string_view text, std::string_view what, size_t from) {
    return text.substr(0, std::min(text.size(), from + kMaxSpan)).find(what, from);
}

// Inline markup: `code`, **strong**, *em* / _em_, [text](http(s) url). Unclosed markers are text.
void inline_into(std::string& out, std::string_view text, int depth = 0) {
    size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (c == '`') {
            const size_t end = find_near(text, "`", i + 1);
            if (end != std::string_view::npos) {
                out += "<code>";
                escape_into(out, text.substr(i + 1, end - i - 1));
                out += "</code>";
                i = end + 1;
                continue;
            }
        } else if (depth >= kMaxNesting) {
        } else if (c == '*' && text.substr(i, 2) == "**") {
            const size_t end = find_near(text, "**", i + 2);
            if (end != std::string_view::npos && end > i + 2) {
                out += "<strong>";
                inline_into(out, text.substr(i + 2, end - i - 2), depth + 1);
                out += "</strong>";
                i = end + 2;
                continue;
            }
        } else if (c == '*' || c == '_') {
            const size_t end = find_near(text, std::string_view(&c, 1), i + 1);
            if (end != std::string_view::npos && end > i + 1) {
                out += "<em>";
                inline_into(out, text.substr(i + 1, end - i - 1), depth + 1);
                out += "</em>";
                i = end + 1;
                continue;
            }
        } else if (c == '[') {
            const size_t close = find_near(text, "](", i + 1);
            const size_t end =
                close == std::string_view::npos ? close : find_near(text, ")", close + 2);
            if (end != std::string_view::npos) {
                const auto url = text.substr(close + 2, end - close - 2);
                if (is_safe_link(url) && url.find_first_of(" \t") == std::string_view::npos) {
                    out += "<a href=\"";
                    escape_into(out, url);
                    out += "\">";
                    inline_into(out, text.substr(i + 1, close - i - 1), depth + 1);
                    out += "</a>";
                    i = end + 1;
                    continue;
                }
            }
        }
        escape_into(out, text.substr(i, 1));
        ++i;
    }
}

std::string_view trim(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// The level of an ATX heading ("## x" -> 2), 0 when the line is none.
int heading_level(std::string_view line) {
    int level = 0;
    while (level < static_cast<int>(line.size()) && line[level] == '#') ++level;
    if (level == 0 || level > 6 || level >= static_cast<int>(line.size()) || line[level] != ' ')
        return 0;
    return level;
}

// The text of a list item ("- x", "* x", "12. x"), or nothing; `ordered` says which kind.
bool list_item(std::string_view line, bool& ordered, std::string_view& item) {
    if ((line.starts_with("- ") || line.starts_with("* ") || line.starts_with("+ "))) {
        ordered = false;
        item = line.substr(2);
        return true;
    }
    size_t digits = 0;
    while (digits < line.size() && digits < 9 && line[digits] >= '0' && line[digits] <= '9')
        ++digits;
    if (digits > 0 && line.substr(digits, 2) == ". ") {
        ordered = true;
        item = line.substr(digits + 2);
        return true;
    }
    return false;
}

std::vector<std::string_view> lines_of(std::string_view text) {
    std::vector<std::string_view> lines;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t end = text.find('\n', start);
        if (end == std::string_view::npos) {
            lines.push_back(text.substr(start));
            break;
        }
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

}  // namespace

std::string markdown_to_html(std::string_view markdown) {
    std::string out;
    const auto lines = lines_of(markdown);
    std::string paragraph;  // raw text of the paragraph being gathered
    const char* open_list = nullptr;
    bool in_quote = false;

    const auto close_paragraph = [&] {
        if (paragraph.empty()) return;
        out += "<p>";
        inline_into(out, paragraph);
        out += "</p>\n";
        paragraph.clear();
    };
    const auto close_blocks = [&] {
        close_paragraph();
        if (open_list) {
            out += open_list;
            open_list = nullptr;
        }
        if (in_quote) {
            out += "</blockquote>\n";
            in_quote = false;
        }
    };

    for (size_t i = 0; i < lines.size(); ++i) {
        const auto line = trim(lines[i]);
        if (line.starts_with("```")) {
            close_blocks();
            out += "<pre><code>";
            for (++i; i < lines.size() && !trim(lines[i]).starts_with("```"); ++i) {
                escape_into(out, lines[i]);
                out += '\n';
            }
            out += "</code></pre>\n";
            continue;
        }
        if (line.empty()) {
            close_blocks();
            continue;
        }
        if (const int level = heading_level(line)) {
            close_blocks();
            const std::string tag = "h" + std::to_string(level);
            out += "<" + tag + ">";
            inline_into(out, trim(line.substr(static_cast<size_t>(level) + 1)));
            out += "</" + tag + ">\n";
            continue;
        }
        bool ordered = false;
        std::string_view item;
        if (list_item(line, ordered, item)) {
            close_paragraph();
            const char* closing = ordered ? "</ol>\n" : "</ul>\n";
            if (open_list != closing) {
                close_blocks();
                out += ordered ? "<ol>\n" : "<ul>\n";
                open_list = closing;
            }
            out += "<li>";
            inline_into(out, trim(item));
            out += "</li>\n";
            continue;
        }
        if (line.starts_with(">")) {
            close_paragraph();
            if (open_list) close_blocks();
            if (!in_quote) {
                out += "<blockquote>\n";
                in_quote = true;
            }
            out += "<p>";
            inline_into(out, trim(line.substr(1)));
            out += "</p>\n";
            continue;
        }
        if (open_list || in_quote) close_blocks();
        if (!paragraph.empty()) paragraph += ' ';
        paragraph += line;
    }
    close_blocks();
    return out;
}

}  // namespace squawk::generation
