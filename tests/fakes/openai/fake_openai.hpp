// What the parts of the fake OpenAI service share: the error answers in the API's shape, and the
// endpoints, each a function of the request that answers as the public API would.
#pragma once

#include "tests/fakes/loopback_http.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace squawk::fakes::openai {

// {"error": {"message", "type", "param", "code"}}; an empty param or code is sent as null.
HttpAnswer error_answer(int status, const std::string& message, const std::string& type,
                        const std::string& param = "", const std::string& code = "");
HttpAnswer json_answer(const nlohmann::json& body);

// 404 model_not_found unless `model` is one the fake was started with.
bool known_model(const std::string& model);
HttpAnswer unknown_model(const std::string& model);

// Seconds since the epoch, for "created".
long long now_seconds();

HttpAnswer chat_completion(const HttpRequest& request);
HttpAnswer image_generation(const HttpRequest& request);
HttpAnswer transcription(const HttpRequest& request);
HttpAnswer speech(const HttpRequest& request);

// How long the recording of `input` at `speed` lasts: kSecondsPerCharacter per character.
inline constexpr double kSecondsPerCharacter = 0.05;
double speech_seconds(const std::string& input, double speed);

// The content the next chat completions answer instead of an article, in order (control call
// POST /_control/completions {"contents": [...]}); forgotten on reset.
HttpAnswer queue_completions(const nlohmann::json& body);
void forget_completions();

// Pages under /pages/ a test sets (POST /_control/pages) and GET reads; nothing for other paths.
HttpAnswer set_page(const nlohmann::json& body);
std::optional<HttpAnswer> page(const HttpRequest& request);

}  // namespace squawk::fakes::openai
