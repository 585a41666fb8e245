// Where the clips of a short start and end in its source: cut in the pauses between spoken words,
// so no clip starts or ends mid-word. Pure, so the planning is tested without a recording.
#pragma once

#include "common/domain/generation/transcription_provider.hpp"

#include <optional>
#include <span>
#include <vector>

namespace squawk::generation {

// A gap between words at least this long is a pause a clip may end in.
inline constexpr double kMinPauseSeconds = 0.3;
// A fixed-length clip ends in the pause nearest its length, at most this much earlier.
inline constexpr double kClipToleranceSeconds = 5;
// "auto" clips run from one long pause to another, this long at least and at most.
inline constexpr double kAutoMinClipSeconds = 15;
inline constexpr double kAutoMaxClipSeconds = 60;
// Silence kept before a clip's first word.
inline constexpr double kClipLeadSeconds = 0.5;

struct PlannedClip {
    double start_seconds = 0;  // in the source
    double end_seconds = 0;
    double duration_seconds() const { return end_seconds - start_seconds; }
};

// Up to `max_clips` clips, in order, from `words` (in time order) of a source `source_seconds`
// long. `clip_seconds` is the fixed length, or nothing for "auto". Without words the source's
// start makes the one clip.
std::vector<PlannedClip> plan_clips(std::span<const TranscribedWord> words, double source_seconds,
                                    std::optional<int> clip_seconds, int max_clips);

// The words spoken in `clip`, timed from its start (a word running past its end is cut there).
std::vector<TranscribedWord> clip_words(std::span<const TranscribedWord> words,
                                        const PlannedClip& clip);

}  // namespace squawk::generation
