// POST /v1/audio/transcriptions: a multipart upload answered with a transcript derived from the
// uploaded file's size (which words, how many), so different recordings get different words.
// verbose_json carries the language by name and, when asked, word timestamps.
#include "tests/fakes/openai/fake_openai.hpp"
#include "tests/fakes/platforms/fake_platform.hpp"

#include <array>
#include <map>

namespace squawk::fakes::openai {
namespace {

constexpr std::array<const char*, 12> kVocabulary{"hello", "and",   "welcome", "to",
                                                  "the",   "show",  "today",   "we",
                                                  "talk",  "about", "squawk",  "again"};
constexpr double kWordSeconds = 0.4;
constexpr double kGapSeconds = 0.1;

std::string language_name(const std::string& code) {
    static const std::map<std::string, std::string> names{
        {"en", "english"}, {"de", "german"}, {"fr", "french"}, {"es", "spanish"}};
    const auto it = names.find(code);
    return it == names.end() ? code : it->second;
}

}  // namespace

HttpAnswer transcription(const HttpRequest& request) {
    const auto form = platforms::parse_form(request);
    if (!form || !form->files.contains("file"))
        return error_answer(400, "Missing required parameter: 'file'.", "invalid_request_error",
                            "file", "missing_required_parameter");
    const auto field = [&](const std::string& name, const std::string& otherwise) {
        const auto it = form->fields.find(name);
        return it == form->fields.end() ? otherwise : it->second;
    };
    const std::string model = field("model", "");
    if (model.empty())
        return error_answer(400, "Missing required parameter: 'model'.", "invalid_request_error",
                            "model", "missing_required_parameter");
    if (!known_model(model)) return unknown_model(model);
    const std::string format = field("response_format", "json");
    if (format != "json" && format != "verbose_json")
        return error_answer(400, "This fake answers json or verbose_json.", "invalid_request_error",
                            "response_format");

    const auto size = form->files["file"]["bytes"].get<size_t>();
    const size_t count = 4 + size % 5;
    nlohmann::json words = nlohmann::json::array();
    std::string text;
    for (size_t i = 0; i < count; ++i) {
        const std::string word = kVocabulary[(size + i) % kVocabulary.size()];
        const double start = static_cast<double>(i) * (kWordSeconds + kGapSeconds);
        words.push_back({{"word", word}, {"start", start}, {"end", start + kWordSeconds}});
        text += (text.empty() ? "" : " ") + word;
    }
    text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
    text += ".";
    if (format == "json") return json_answer({{"text", text}});
    nlohmann::json answer{
        {"task", "transcribe"},
        {"language", language_name(field("language", "en"))},
        {"duration", static_cast<double>(count) * (kWordSeconds + kGapSeconds) + 0.3},
        {"text", text}};
    if (field("timestamp_granularities[]", "segment") == "word") answer["words"] = words;
    return json_answer(answer);
}

}  // namespace squawk::fakes::openai
