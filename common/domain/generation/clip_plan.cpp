#include "common/domain/generation/clip_plan.hpp"

#include <algorithm>

namespace squawk::generation {
namespace {

struct Bounds {
    double min_seconds;
    double max_seconds;
};

// The cut in the pause after words[k]: its middle, but never past `limit`.
double cut_after(std::span<const TranscribedWord> words, size_t k, double limit) {
    return std::min(limit, (words[k].end_seconds + words[k + 1].start_seconds) / 2);
}

// Where a clip starting at `start` (its first word words[first]) ends: after the last word when
// the rest of the speech fits, else for a fixed length the pause nearest the length, for "auto" the
// longest pause in the window; else the last word boundary before the limit, else the limit itself.
double choose_cut(std::span<const TranscribedWord> words, size_t first, double start, Bounds bounds,
                  bool longest_pause) {
    const double earliest = start + bounds.min_seconds;
    const double limit = start + bounds.max_seconds;
    // The rest of the speech fits: the clip ends after its last word.
    if (words.back().end_seconds <= limit)
        return std::min(limit, words.back().end_seconds + kClipLeadSeconds);
    std::optional<size_t> best;
    double best_gap = 0;
    std::optional<size_t> last_boundary;
    for (size_t k = first; k + 1 < words.size(); ++k) {
        if (words[k].end_seconds > limit) break;
        last_boundary = k;
        const double gap = words[k + 1].start_seconds - words[k].end_seconds;
        const double cut = cut_after(words, k, limit);
        if (gap < kMinPauseSeconds || cut < earliest) continue;
        // Later pauses replace earlier ones for a fixed length (nearest the length) and on a tie
        // for "auto" (the longer clip).
        if (!longest_pause || gap >= best_gap) {
            best = k;
            best_gap = gap;
        }
    }
    if (best) return cut_after(words, *best, limit);
    if (last_boundary) return cut_after(words, *last_boundary, limit);
    return limit;
}

}  // namespace

std::vector<PlannedClip> plan_clips(std::span<const TranscribedWord> words, double source_seconds,
                                    std::optional<int> clip_seconds, int max_clips) {
    const Bounds bounds = clip_seconds
                              ? Bounds{std::max(1.0, *clip_seconds - kClipToleranceSeconds),
                                       static_cast<double>(*clip_seconds)}
                              : Bounds{kAutoMinClipSeconds, kAutoMaxClipSeconds};
    std::vector<PlannedClip> clips;
    if (words.empty()) {
        if (source_seconds > 0) clips.push_back({0, std::min(source_seconds, bounds.max_seconds)});
        return clips;
    }
    double cursor = 0;
    size_t next = 0;
    while (static_cast<int>(clips.size()) < max_clips && next < words.size()) {
        const double start = std::max(cursor, words[next].start_seconds - kClipLeadSeconds);
        if (start >= source_seconds) break;
        PlannedClip clip{start, source_seconds};
        if (start + bounds.max_seconds < source_seconds)
            clip.end_seconds = choose_cut(words, next, start, bounds, !clip_seconds);
        clips.push_back(clip);
        cursor = clip.end_seconds;
        while (next < words.size() && words[next].start_seconds < cursor) ++next;
    }
    return clips;
}

std::vector<TranscribedWord> clip_words(std::span<const TranscribedWord> words,
                                        const PlannedClip& clip) {
    std::vector<TranscribedWord> out;
    for (const auto& w : words) {
        if (w.start_seconds < clip.start_seconds || w.start_seconds >= clip.end_seconds) continue;
        out.push_back({w.word, w.start_seconds - clip.start_seconds,
                       std::min(w.end_seconds, clip.end_seconds) - clip.start_seconds});
    }
    return out;
}

}  // namespace squawk::generation
