// The languages Squawk asks an OpenAI-style transcription service for: ISO-639-1 codes, which the
// request sends, and the names Whisper's verbose answer reports instead ("english").
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace squawk::providers::openai {

struct TranscriptionLanguage {
    std::string_view code;  // ISO-639-1
    std::string_view name;  // as Whisper reports it
};

std::span<const TranscriptionLanguage> transcription_languages();

// The code for what an answer reports (a code or a Whisper name, any case); empty if unknown.
std::string language_code(std::string_view reported);

}  // namespace squawk::providers::openai
