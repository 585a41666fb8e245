#include "common/extensions/platforms/bluesky/facets.hpp"

#include <algorithm>
#include <string>

namespace squawk::social::bluesky {
namespace {

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Where a URL starting at `start` ends (exclusive).
size_t url_end(std::string_view text, size_t start) {
    size_t end = start;
    while (end < text.size() && !is_space(text[end])) ++end;
    while (end > start) {
        const char last = text[end - 1];
        const auto url = text.substr(start, end - start);
        const bool unopened = last == ')' && std::count(url.begin(), url.end(), '(') <
                                                 std::count(url.begin(), url.end(), ')');
        if (!unopened && std::string_view(".,;:!?\"'").find(last) == std::string_view::npos) break;
        --end;
    }
    return end;
}

}  // namespace

nlohmann::json link_facets(std::string_view text) {
    nlohmann::json facets = nlohmann::json::array();
    size_t at = 0;
    while (at < text.size()) {
        const auto https = text.find("https://", at);
        const auto http = text.find("http://", at);
        const size_t start = std::min(https, http);
        if (start == std::string_view::npos) break;
        const bool after_break = start == 0 || is_space(text[start - 1]) ||
                                 text[start - 1] == '(' || text[start - 1] == '[';
        const size_t scheme = text.compare(start, 8, "https://") == 0 ? 8 : 7;
        const size_t end = url_end(text, start);
        if (after_break && end > start + scheme)
            facets.push_back({{"index", {{"byteStart", start}, {"byteEnd", end}}},
                              {"features",
                               {{{"$type", "app.bsky.richtext.facet#link"},
                                 {"uri", std::string(text.substr(start, end - start))}}}}});
        at = std::max(end, start + scheme);
    }
    return facets;
}

}  // namespace squawk::social::bluesky
