// Reads the format and length of a RIFF/WAVE file produced by a helper program. The bytes come
// from a subprocess, so every size in the header is checked against what is really there.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace squawk::generation {

struct WavInfo {
    uint16_t channels = 0;
    uint32_t sample_rate = 0;
    uint32_t byte_rate = 0;
    uint16_t bits_per_sample = 0;
    uint64_t data_bytes = 0;  // audio bytes present in the file
    double duration_seconds = 0;
};

// Null when `bytes` is not a WAVE file with a usable fmt chunk followed by a data chunk. A data
// size larger than the file (streaming writers leave it at 0xFFFFFFFF) counts what is present.
std::optional<WavInfo> parse_wav(std::string_view bytes);

}  // namespace squawk::generation
