// How many units of a billable operation a job is paid for: an upper bound estimated from its
// request (reserved when it is accepted) and the quantity it made (settled when it completes).
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace squawk::billing {

// The speaking rate an estimate assumes at most: slower than any voice's default, so that
// narration rarely outlasts what was reserved (and costs no more than that when it does).
inline constexpr int kSlowWordsPerMinute = 120;
// Pauses, lead-in and the pad after each narrated text, counted once per text.
inline constexpr long long kPadSecondsPerText = 1;

// Words of `text` as read aloud: whitespace-separated words, or one per 6 characters when that is
// more (text without spaces still takes time to say).
long long spoken_words(std::string_view text);

// At most how many seconds `text` takes to say at `words_per_minute`: its words at the slower of
// that rate and kSlowWordsPerMinute, rounded up, plus kPadSecondsPerText.
long long speech_seconds_bound(std::string_view text, int words_per_minute);

// At most how long a video of narrated scenes lasts: each scene as speech_seconds_bound().
long long video_seconds_bound(std::span<const std::string> scene_texts, int words_per_minute);

// At most how long a short lasts: `max_clips` clips of `clip_length_seconds` each.
long long short_seconds_bound(long long clip_length_seconds, long long max_clips);

// Whole seconds, rounded up; a job that made anything is paid for at least one unit.
long long whole_seconds(double seconds);

}  // namespace squawk::billing
