#include "common/extensions/providers/espeak/espeak_voices.hpp"

#include <array>

namespace squawk::providers::espeak {
namespace {

constexpr std::array<std::string_view, 19> kVoices{"en",  "en-us", "en-gb", "de", "fr", "es", "it",
                                                   "pt",  "pt-br", "nl",    "sv", "pl", "ru", "ja",
                                                   "cmn", "hi",    "ar",    "ko", "tr"};

}  // namespace

std::span<const std::string_view> voices() {
    return kVoices;
}

}  // namespace squawk::providers::espeak
