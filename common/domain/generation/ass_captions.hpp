// The captions of a short as an ASS subtitle document (burnt in by libass through ffmpeg): the
// clip's words grouped into lines and drawn as the caption style says. Transcripts come from
// audio a user chose, so every word is escaped before it reaches the document.
#pragma once

#include "common/domain/generation/caption_styles.hpp"
#include "common/domain/generation/transcription_provider.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::generation {

// A line breaks at a pause this long, so it is not on screen over the silence.
inline constexpr double kLineBreakPauseSeconds = 0.7;
// How long a line (or a word-pop word) stays after its last word, unless the next one starts.
inline constexpr double kCaptionHoldSeconds = 0.3;
// The longest line, in characters.
inline constexpr size_t kMaxLineChars = 24;

struct CaptionLine {
    std::vector<TranscribedWord> words;
};

// Words (in time order) in lines of at most `max_words` words and kMaxLineChars characters, broken
// at pauses of kLineBreakPauseSeconds.
std::vector<CaptionLine> group_lines(std::span<const TranscribedWord> words, int max_words);

// ASS's time: H:MM:SS.cc, rounded to the centisecond.
std::string ass_time(double seconds);

// `word` as literal ASS text: braces and backslashes cannot start an override or an escape, and
// line breaks and control characters become spaces. ASCII letters upper-cased when asked.
std::string ass_text(std::string_view word, bool uppercase);

// The whole document for a `width` x `height` frame: Script Info, one V4+ style from `style` and
// the caption formats (kCaptionFormats values), and the Dialogue events of `words` (timed from
// the clip's start).
std::string ass_document(const CaptionStyle& style, std::span<const std::string> formats,
                         std::span<const TranscribedWord> words, int width, int height);

}  // namespace squawk::generation
