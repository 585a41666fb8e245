#include "common/domain/billing/billable_quantity.hpp"

#include <algorithm>
#include <cmath>

namespace squawk::billing {
namespace {

constexpr long long kCharactersPerWord = 6;

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Code points of UTF-8 text: every byte but continuation bytes.
long long characters(std::string_view text) {
    return std::count_if(text.begin(), text.end(),
                         [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
}

}  // namespace

long long spoken_words(std::string_view text) {
    long long words = 0;
    bool in_word = false;
    for (const char c : text) {
        if (is_space(c)) {
            in_word = false;
        } else if (!in_word) {
            in_word = true;
            ++words;
        }
    }
    const long long by_length = (characters(text) + kCharactersPerWord - 1) / kCharactersPerWord;
    return std::max(words, by_length);
}

long long speech_seconds_bound(std::string_view text, int words_per_minute) {
    const long long rate = std::clamp(words_per_minute, 1, kSlowWordsPerMinute);
    return (spoken_words(text) * 60 + rate - 1) / rate + kPadSecondsPerText;
}

long long video_seconds_bound(std::span<const std::string> scene_texts, int words_per_minute) {
    long long seconds = 0;
    for (const auto& text : scene_texts) seconds += speech_seconds_bound(text, words_per_minute);
    return std::max(seconds, 1LL);
}

long long short_seconds_bound(long long clip_length_seconds, long long max_clips) {
    return std::max(clip_length_seconds * max_clips, 1LL);
}

long long whole_seconds(double seconds) {
    if (!std::isfinite(seconds) || seconds <= 1) return 1;
    return static_cast<long long>(std::ceil(seconds - 1e-9));
}

}  // namespace squawk::billing
