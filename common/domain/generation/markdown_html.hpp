// Turns the Markdown a text provider wrote into HTML that is safe to put in a page: headings,
// paragraphs, lists, quotes, code, emphasis and http(s) links; every other character is escaped,
// so no tag, attribute or script from the model's text reaches the page.
#pragma once

#include <string>
#include <string_view>

namespace squawk::generation {

std::string markdown_to_html(std::string_view markdown);

}  // namespace squawk::generation
