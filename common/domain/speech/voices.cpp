#include "common/domain/speech/voices.hpp"

#include <algorithm>
#include <array>

namespace squawk::speech {
namespace {

constexpr std::array<std::string_view, 19> kVoices{"en",  "en-us", "en-gb", "de", "fr", "es", "it",
                                                   "pt",  "pt-br", "nl",    "sv", "pl", "ru", "ja",
                                                   "cmn", "hi",    "ar",    "ko", "tr"};

}  // namespace

std::span<const std::string_view> voices() {
    return kVoices;
}

bool is_known_voice(std::string_view name) {
    return std::find(kVoices.begin(), kVoices.end(), name) != kVoices.end();
}

}  // namespace squawk::speech
