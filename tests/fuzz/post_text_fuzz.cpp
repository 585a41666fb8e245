// Fuzzes what reads a post's text and a linked page for the platforms, with arbitrary bytes: it
// must never crash or hang; Bluesky's facets and mentions are ranges inside the text that start
// and end on UTF-8 boundaries, in order; X's weighted length is at most two per byte plus a link's
// worth per link; a page's card text stays within its caps and is UTF-8.
#include "common/core/http/form_encoding.hpp"
#include "common/extensions/platforms/bluesky/facets.hpp"
#include "common/extensions/platforms/bluesky/page_meta.hpp"
#include "common/extensions/platforms/x/weighted_length.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>

namespace {

bool on_boundary(std::string_view text, size_t at) {
    return at == text.size() || (static_cast<unsigned char>(text[at]) & 0xC0) != 0x80;
}

void check_range(std::string_view text, size_t start, size_t end) {
    if (start >= end || end > text.size()) std::abort();
    if (!on_boundary(text, start) || !on_boundary(text, end)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    using namespace squawk::social;

    const auto meta = bluesky::read_page_meta(text);
    if (meta.title.size() > 300 || meta.description.size() > 1000) std::abort();
    if (!squawk::http::is_valid_utf8(meta.title) || !squawk::http::is_valid_utf8(meta.description))
        std::abort();

    if (!squawk::http::is_valid_utf8(text)) return 0;  // posts are UTF-8 once validated
    size_t previous_end = 0;
    for (const auto& m : bluesky::find_mentions(text)) {
        check_range(text, m.byte_start, m.byte_end);
        if (m.byte_start < previous_end || text[m.byte_start] != '@') std::abort();
        previous_end = m.byte_end;
    }
    std::map<std::string, std::string> dids;
    for (const auto& m : bluesky::find_mentions(text)) dids[m.handle] = "did:plc:fuzz";
    previous_end = 0;
    for (const auto& facet : bluesky::post_facets(text, dids)) {
        const size_t start = facet["index"]["byteStart"].get<size_t>();
        const size_t end = facet["index"]["byteEnd"].get<size_t>();
        check_range(text, start, end);
        if (start < previous_end) std::abort();
        previous_end = end;
    }
    // Every link starts with "http", so there are no more links than occurrences of it.
    size_t most_links = 0;
    for (size_t at = text.find("http"); at != std::string_view::npos;
         at = text.find("http", at + 1))
        ++most_links;
    if (x::weighted_length(text) > 2 * text.size() + most_links * x::kLinkLength) std::abort();
    return 0;
}
