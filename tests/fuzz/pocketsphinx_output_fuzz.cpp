// libFuzzer target: the word lines pocketsphinx_continuous prints, on arbitrary bytes (the program
// reads untrusted recordings, and its output is only as sane as its decoder).
#include "common/extensions/providers/pocketsphinx/pocketsphinx_output.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto words = squawk::providers::pocketsphinx::parse_pocketsphinx_output(text);
    double previous_start = 0;
    for (const auto& w : words) {
        if (w.word.empty() || w.word.find_first_of(" \t\r\n") != std::string::npos)
            __builtin_trap();
        const bool filler = (w.word.size() >= 2 && w.word.front() == '<' && w.word.back() == '>') ||
                            (w.word.size() >= 2 && w.word.front() == '[' && w.word.back() == ']');
        if (filler) __builtin_trap();
        if (!std::isfinite(w.start_seconds) || !std::isfinite(w.end_seconds) ||
            w.start_seconds < 0 || w.end_seconds < w.start_seconds)
            __builtin_trap();
        if (w.start_seconds < previous_start) __builtin_trap();
        previous_start = w.start_seconds;
    }
    return 0;
}
