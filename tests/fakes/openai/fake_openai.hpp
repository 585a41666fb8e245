// What the parts of the fake OpenAI service share: the error answers in the API's shape, and the
// three endpoints, each a function of the request that answers as the public API would.
#pragma once

#include "tests/fakes/loopback_http.hpp"

#include <nlohmann/json.hpp>

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

}  // namespace squawk::fakes::openai
