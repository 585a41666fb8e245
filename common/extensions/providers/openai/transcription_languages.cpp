#include "common/extensions/providers/openai/transcription_languages.hpp"

#include "common/core/text/ascii.hpp"

#include <algorithm>
#include <array>

namespace squawk::providers::openai {
namespace {

constexpr std::array<TranscriptionLanguage, 48> kLanguages{{
    {"en", "english"},   {"de", "german"},     {"fr", "french"},     {"es", "spanish"},
    {"it", "italian"},   {"pt", "portuguese"}, {"nl", "dutch"},      {"sv", "swedish"},
    {"da", "danish"},    {"no", "norwegian"},  {"fi", "finnish"},    {"pl", "polish"},
    {"cs", "czech"},     {"sk", "slovak"},     {"hu", "hungarian"},  {"ro", "romanian"},
    {"bg", "bulgarian"}, {"el", "greek"},      {"ru", "russian"},    {"uk", "ukrainian"},
    {"tr", "turkish"},   {"ar", "arabic"},     {"he", "hebrew"},     {"hi", "hindi"},
    {"bn", "bengali"},   {"ur", "urdu"},       {"fa", "persian"},    {"id", "indonesian"},
    {"ms", "malay"},     {"th", "thai"},       {"vi", "vietnamese"}, {"zh", "chinese"},
    {"ja", "japanese"},  {"ko", "korean"},     {"ca", "catalan"},    {"hr", "croatian"},
    {"sr", "serbian"},   {"sl", "slovenian"},  {"lt", "lithuanian"}, {"lv", "latvian"},
    {"et", "estonian"},  {"ta", "tamil"},      {"te", "telugu"},     {"mr", "marathi"},
    {"sw", "swahili"},   {"tl", "tagalog"},    {"af", "afrikaans"},  {"cy", "welsh"},
}};

}  // namespace

std::span<const TranscriptionLanguage> transcription_languages() {
    return kLanguages;
}

std::string language_code(std::string_view reported) {
    const std::string lower = text::ascii_lowercase(reported);
    const auto it = std::find_if(kLanguages.begin(), kLanguages.end(), [&](const auto& language) {
        return language.code == lower || language.name == lower;
    });
    return it == kLanguages.end() ? std::string() : std::string(it->code);
}

}  // namespace squawk::providers::openai
