#include "common/extensions/platforms/bluesky/facets.hpp"

#include "common/core/text/ascii.hpp"

#include <algorithm>
#include <string>

namespace squawk::social::bluesky {
namespace {

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool is_alnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool is_handle_char(char c) {
    return is_alnum(c) || c == '.' || c == '-';
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

bool is_label(std::string_view label) {
    return !label.empty() && label.size() <= 63 && label.front() != '-' && label.back() != '-' &&
           std::all_of(label.begin(), label.end(), [](char c) { return is_alnum(c) || c == '-'; });
}

// The atproto handle syntax (atproto.com/specs/handle): at least two labels, the last (the TLD)
// starting with a letter.
bool is_handle(std::string_view handle) {
    if (handle.size() > 253 || handle.find('.') == std::string_view::npos) return false;
    std::string_view label;
    for (size_t start = 0; start <= handle.size();) {
        const size_t dot = std::min(handle.find('.', start), handle.size());
        label = handle.substr(start, dot - start);
        if (!is_label(label)) return false;
        start = dot + 1;
    }
    return (label.front() >= 'a' && label.front() <= 'z') ||
           (label.front() >= 'A' && label.front() <= 'Z');
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

// Bluesky's clients match /(^|\s|\()@([a-zA-Z0-9.-]+)\b/: the run of handle characters, less the
// periods and hyphens a word boundary leaves out, and nothing when a word character ('_') follows.
std::vector<Mention> find_mentions(std::string_view text) {
    std::vector<Mention> mentions;
    for (size_t at = text.find('@'); at != std::string_view::npos; at = text.find('@', at + 1)) {
        if (at > 0 && !is_space(text[at - 1]) && text[at - 1] != '(') continue;
        size_t end = at + 1;
        while (end < text.size() && is_handle_char(text[end])) ++end;
        const bool word_follows = end < text.size() && text[end] == '_';
        while (end > at + 1 && !is_alnum(text[end - 1])) --end;
        const auto handle = text.substr(at + 1, end - at - 1);
        if (word_follows || !is_handle(handle)) continue;
        mentions.push_back({at, end, text::ascii_lowercase(handle)});
    }
    return mentions;
}

nlohmann::json post_facets(std::string_view text, const std::map<std::string, std::string>& dids) {
    nlohmann::json facets = link_facets(text);
    const auto in_link = [links = facets](const Mention& mention) {
        return std::any_of(links.begin(), links.end(), [&](const nlohmann::json& link) {
            return mention.byte_start < link["index"]["byteEnd"].get<size_t>() &&
                   link["index"]["byteStart"].get<size_t>() < mention.byte_end;
        });
    };
    for (const auto& mention : find_mentions(text)) {
        const auto did = dids.find(mention.handle);
        if (did == dids.end() || in_link(mention)) continue;
        facets.push_back(
            {{"index", {{"byteStart", mention.byte_start}, {"byteEnd", mention.byte_end}}},
             {"features", {{{"$type", "app.bsky.richtext.facet#mention"}, {"did", did->second}}}}});
    }
    std::stable_sort(facets.begin(), facets.end(), [](const auto& a, const auto& b) {
        return a["index"]["byteStart"].template get<size_t>() <
               b["index"]["byteStart"].template get<size_t>();
    });
    return facets;
}

}  // namespace squawk::social::bluesky
