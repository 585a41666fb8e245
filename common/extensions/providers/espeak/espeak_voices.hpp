// The espeak-ng voices Squawk offers for text to speech: the API validates requests against this
// list (through the provider's voices()), so callers see the same names the engine renders.
#pragma once

#include <span>
#include <string_view>

namespace squawk::providers::espeak {

// Names as `espeak-ng --voices` lists them (plus "en", its default English voice).
std::span<const std::string_view> voices();

}  // namespace squawk::providers::espeak
