// What an OpenAI-style service answered, read without trusting it: an error answer becomes a
// ProviderError saying whether a retry may help, a success body the result it promises. Pure
// functions of the answer, so they are tested and fuzzed without a network.
#pragma once

#include "common/core/http/http_client.hpp"
#include "common/domain/generation/text_provider.hpp"
#include "common/domain/generation/transcription_provider.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace squawk::providers::openai {

// The JSON object of a 2xx answer. Throws ProviderError for anything else: retryable for what a
// later call may fix (no answer, 408, 409, 429, 5xx, a cut-short or unreadable body), permanent
// otherwise; refused content and unknown models carry details {"code": <API error code>}.
nlohmann::json accepted_body(const http::Response& response);

// The body of a 2xx answer that is audio rather than JSON (audio/speech), a reference into
// `response`; failures as accepted_body.
const std::string& accepted_bytes(const http::Response& response);

// choices[0] of a chat.completion. A filtered or refused completion is a permanent failure.
generation::TextCompletion parse_completion(const nlohmann::json& body);

// The bytes of data[0].b64_json of an images answer.
std::string parse_image(const nlohmann::json& body);

// A verbose_json transcription with word timestamps; `requested_language` stands in when the
// answer names no language this provider knows.
generation::Transcript parse_transcription(const nlohmann::json& body,
                                           std::string_view requested_language);

}  // namespace squawk::providers::openai
