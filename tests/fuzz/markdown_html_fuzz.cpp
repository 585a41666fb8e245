// Fuzzes the Markdown-to-HTML conversion of a provider's article with arbitrary bytes: it must
// never crash or hang, and every '<' it writes must open one of its own tags, so nothing in the
// input becomes markup of its choosing.
#include "common/domain/generation/markdown_html.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

constexpr std::string_view kTags[] = {
    "<p>",      "</p>",         "<ul>",          "</ul>", "<ol>",           "</ol>",  "<li>",
    "</li>",    "<blockquote>", "</blockquote>", "<pre>", "</pre>",         "<code>", "</code>",
    "<strong>", "</strong>",    "<em>",          "</em>", "<a href=\"http", "</a>",   "<h1>",
    "</h1>",    "<h2>",         "</h2>",         "<h3>",  "</h3>",          "<h4>",   "</h4>",
    "<h5>",     "</h5>",        "<h6>",          "</h6>"};

bool opens_own_tag(std::string_view rest) {
    for (const auto tag : kTags)
        if (rest.starts_with(tag)) return true;
    return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::string html = squawk::generation::markdown_to_html(input);
    for (size_t at = html.find('<'); at != std::string::npos; at = html.find('<', at + 1))
        if (!opens_own_tag(std::string_view(html).substr(at))) std::abort();
    return 0;
}
