// Reads what pocketsphinx_continuous -time yes prints: per utterance, its text on one line, then
// one "word start end confidence" line per segment. Only the word lines carry what we need.
#pragma once

#include "common/domain/generation/transcription_provider.hpp"

#include <string_view>
#include <vector>

namespace squawk::providers::pocketsphinx {

// The spoken words in time order. Silences and fillers (<s>, </s>, <sil>, [NOISE], ++BREATH++)
// are dropped, alternate-pronunciation marks ("read(2)") removed, and any line that is not a
// well-formed word line (the utterance texts, stray output) ignored.
std::vector<generation::TranscribedWord> parse_pocketsphinx_output(std::string_view output);

}  // namespace squawk::providers::pocketsphinx
