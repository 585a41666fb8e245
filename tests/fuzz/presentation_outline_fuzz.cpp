// Fuzzes the reading of a text provider's outline answer with arbitrary bytes: it must never
// crash or hang, and whatever it accepts must have the slide count asked and stay within the
// bounds given slides have.
#include "common/domain/generation/presentation_outline.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    using namespace squawk::generation;
    // The first byte picks the slide count asked, so counts other than the seeds' are reached.
    const size_t slide_count = kMinOutlineSlides + data[0] % kMaxOutlineSlides;
    const std::string_view answer(reinterpret_cast<const char*>(data + 1), size - 1);
    try {
        const auto outline = parse_outline(answer, slide_count);
        if (outline.slides.size() != slide_count || outline.title.empty() ||
            outline.title.size() > kMaxPresentationTitleChars)
            std::abort();
        for (const auto& slide : outline.slides) {
            if (slide.title.empty() || slide.title.size() > kMaxSlideTitleChars ||
                slide.bullets.size() < kMinOutlineBullets ||
                slide.bullets.size() > kMaxOutlineBullets)
                std::abort();
            for (const auto& bullet : slide.bullets)
                if (bullet.empty() || bullet.size() > kMaxBulletChars) std::abort();
        }
    } catch (const MalformedOutline&) {
    }
    return 0;
}
