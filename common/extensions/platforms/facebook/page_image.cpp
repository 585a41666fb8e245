#include "common/extensions/platforms/facebook/page_image.hpp"

#include "common/domain/social/media_probe.hpp"

#include <cstdint>

namespace squawk::social::facebook {
namespace {

uint32_t big(std::string_view b, size_t at, size_t n) {
    uint32_t v = 0;
    for (size_t i = 0; i < n; ++i) v = (v << 8) | static_cast<unsigned char>(b[at + i]);
    return v;
}

uint32_t little(std::string_view b, size_t at, size_t n) {
    uint32_t v = 0;
    for (size_t i = n; i-- > 0;) v = (v << 8) | static_cast<unsigned char>(b[at + i]);
    return v;
}

// A JPEG's size is in its first start-of-frame segment (SOF0-SOF15 but DHT, JPG and DAC).
void jpeg_size(std::string_view b, ImageFacts& facts) {
    size_t at = 2;
    while (at + 9 < b.size()) {
        if (static_cast<unsigned char>(b[at]) != 0xFF) return;
        const auto marker = static_cast<unsigned char>(b[at + 1]);
        if (marker == 0xFF) {
            ++at;
            continue;
        }
        const uint32_t length = big(b, at + 2, 2);
        if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 &&
            marker != 0xCC) {
            facts.height = static_cast<int>(big(b, at + 5, 2));
            facts.width = static_cast<int>(big(b, at + 7, 2));
            return;
        }
        at += 2 + length;
    }
}

// A TIFF's size is in its first directory's ImageWidth (256) and ImageLength (257) entries.
void tiff_size(std::string_view b, ImageFacts& facts) {
    const bool le = b[0] == 'I';
    const auto read = [&](size_t at, size_t n) { return le ? little(b, at, n) : big(b, at, n); };
    const size_t ifd = read(4, 4);
    if (ifd + 2 > b.size()) return;
    const size_t entries = read(ifd, 2);
    for (size_t i = 0; i < entries && ifd + 2 + 12 * (i + 1) <= b.size(); ++i) {
        const size_t entry = ifd + 2 + 12 * i;
        const uint32_t tag = read(entry, 2);
        const uint32_t kind = read(entry + 2, 2);
        const uint32_t value = kind == 3 ? read(entry + 8, 2) : read(entry + 8, 4);
        if (tag == 256) facts.width = static_cast<int>(value);
        if (tag == 257) facts.height = static_cast<int>(value);
    }
}

}  // namespace

std::optional<ImageFacts> image_facts(std::string_view b) {
    ImageFacts facts;
    if (b.size() >= 24 && b.substr(0, 8) == "\x89PNG\r\n\x1a\n") {
        facts.type = "image/png";
        facts.width = static_cast<int>(big(b, 16, 4));
        facts.height = static_cast<int>(big(b, 20, 4));
    } else if (b.size() >= 10 && (b.substr(0, 6) == "GIF87a" || b.substr(0, 6) == "GIF89a")) {
        facts.type = "image/gif";
        facts.width = static_cast<int>(little(b, 6, 2));
        facts.height = static_cast<int>(little(b, 8, 2));
    } else if (b.size() >= 26 && b.substr(0, 2) == "BM") {
        facts.type = "image/bmp";
        facts.width = static_cast<int>(little(b, 18, 4));
        // Negative heights mark rows stored top-down.
        facts.height = std::abs(static_cast<int32_t>(little(b, 22, 4)));
    } else if (b.size() >= 3 && b.substr(0, 3) == "\xFF\xD8\xFF") {
        facts.type = "image/jpeg";
        jpeg_size(b, facts);
    } else if (b.size() >= 8 && (b.substr(0, 4) == std::string_view("II*\0", 4) ||
                                 b.substr(0, 4) == std::string_view("MM\0*", 4))) {
        facts.type = "image/tiff";
        tiff_size(b, facts);
    } else {
        return std::nullopt;
    }
    return facts;
}

std::optional<std::string> page_image_problem(http::Client& http, const std::string& url,
                                              const TargetCheck& check,
                                              std::chrono::milliseconds timeout, bool cover) {
    const auto probe = probe_media(http, url, check, timeout);
    if (probe.failure) return "could not be fetched: " + probe.failure->reason;
    if (probe.bytes && *probe.bytes > kMaxPageImageBytes) return "is larger than 10 MB";
    const auto download =
        download_media(http, url, check, timeout, kMaxPageImageBytes, probe.bytes);
    if (download.failure) return "could not be fetched: " + download.failure->reason;
    const auto facts = image_facts(download.bytes);
    if (!facts) return "is not a JPG, PNG, GIF, BMP or TIFF image";
    if (cover && (facts->width < kMinCoverWidth || facts->height < kMinCoverHeight))
        return "is " + std::to_string(facts->width) + "x" + std::to_string(facts->height) +
               " pixels; a cover is at least 400x150";
    return std::nullopt;
}

}  // namespace squawk::social::facebook
