#include "common/core/http/response_headers.hpp"

#include "common/core/text/ascii.hpp"

namespace squawk::http {

void add_header_line(std::string_view line, HeaderList& headers) {
    if (line.starts_with("HTTP/")) {
        headers.clear();
        return;
    }
    const auto colon = line.find(':');
    if (colon == std::string_view::npos || headers.size() >= 100) return;
    std::string name(line.substr(0, colon));
    for (char& c : name) c = text::ascii_lower(c);
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n')) value.remove_suffix(1);
    headers.emplace_back(std::move(name), std::string(text::trim_blanks(value)));
}

}  // namespace squawk::http
