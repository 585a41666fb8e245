#include "common/extensions/providers/openai/openai_transcription_provider.hpp"

#include "common/core/http/multipart.hpp"
#include "common/domain/generation/provider_error.hpp"
#include "common/extensions/providers/openai/openai_answers.hpp"
#include "common/extensions/providers/openai/openai_service.hpp"
#include "common/extensions/providers/openai/transcription_languages.hpp"

#include <fstream>
#include <map>
#include <sstream>

namespace squawk::providers::openai {
namespace {

using generation::ProviderError;

// The service tells formats apart by the upload's name and type.
std::string media_type(const std::filesystem::path& input) {
    static const std::map<std::string, std::string> types{
        {".mp3", "audio/mpeg"}, {".mpga", "audio/mpeg"}, {".wav", "audio/wav"},
        {".m4a", "audio/mp4"},  {".mp4", "video/mp4"},   {".webm", "video/webm"},
        {".ogg", "audio/ogg"},  {".oga", "audio/ogg"},   {".flac", "audio/flac"}};
    const auto it = types.find(input.extension().string());
    return it == types.end() ? "application/octet-stream" : it->second;
}

std::string read_input(const std::filesystem::path& input) {
    std::ifstream in(input, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (!in || bytes.str().empty())
        throw ProviderError::permanent("the recording " + input.filename().string() +
                                       " cannot be read or is empty");
    return std::move(bytes).str();
}

}  // namespace

std::vector<std::string> OpenAiTranscriptionProvider::languages() const {
    std::vector<std::string> codes;
    for (const auto& language : transcription_languages()) codes.emplace_back(language.code);
    return codes;
}

generation::Transcript OpenAiTranscriptionProvider::transcribe(
    const std::filesystem::path& input, const generation::TranscriptionRequest& request,
    generation::ProviderCalls& calls) const {
    const std::string model = chosen_model(settings_.transcription_models, request.model);
    if (language_code(request.language) != request.language)
        throw ProviderError::permanent("language '" + request.language + "' is not offered",
                                       {{"field", "language"}});
    std::string recording;
    calls.blocking([&] { recording = read_input(input); });
    http::Multipart form;
    form.file("file", input.filename().string(), media_type(input), recording);
    recording.clear();
    form.field("model", model);
    form.field("response_format", "verbose_json");
    form.field("timestamp_granularities[]", "word");
    form.field("language", request.language);
    const std::string content_type = form.content_type();
    auto transcript =
        parse_transcription(call_service(settings_,
                                         {"/audio/transcriptions", content_type,
                                          std::move(form).finish(), request.idempotency_key},
                                         calls),
                            request.language);
    transcript.model = model;
    return transcript;
}

}  // namespace squawk::providers::openai
