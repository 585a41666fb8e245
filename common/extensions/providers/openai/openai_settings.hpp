// A service that speaks the OpenAI HTTP API (OpenAI itself, llama.cpp's server, Ollama, vLLM):
// where it is, its key, the models a deployment allows and how long a call may take.
// [providers.openai].
#pragma once

#include "common/core/config/config_fwd.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace squawk::config {

struct OpenAiSettings {
    std::string base_url = "https://api.openai.com/v1";  // without a trailing slash
    std::string api_key;                                 // empty: no Authorization header
    // Each list is written comma-separated; its first model is the default.
    std::vector<std::string> text_models{"gpt-4o-mini"};
    std::vector<std::string> image_models{"gpt-image-1"};
    std::vector<std::string> transcription_models{"whisper-1"};
    std::vector<std::string> speech_models{"tts-1"};
    // The voices the API offers for text to speech; the first stands in for the default voice.
    std::vector<std::string> speech_voices{"alloy", "echo", "fable", "onyx", "nova", "shimmer"};
    int timeout_seconds = 120;
    // Images come back base64-encoded inside JSON: a 1080x1920 PNG runs to several MiB.
    size_t max_response_bytes = 64 * 1024 * 1024;
};

SectionSchema<OpenAiSettings> openai_schema();

}  // namespace squawk::config
