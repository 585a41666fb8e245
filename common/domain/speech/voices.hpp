// The espeak-ng voices Squawk offers for text to speech: the API validates requests against this
// list and the worker renders with it, so both agree on what a voice name may be.
#pragma once

#include <span>
#include <string_view>

namespace squawk::speech {

inline constexpr std::string_view kDefaultVoice = "en";
inline constexpr int kDefaultWordsPerMinute = 175;
inline constexpr int kMinWordsPerMinute = 80;
inline constexpr int kMaxWordsPerMinute = 450;

// Names as `espeak-ng --voices` lists them (plus "en", its default English voice).
std::span<const std::string_view> voices();
bool is_known_voice(std::string_view name);

}  // namespace squawk::speech
