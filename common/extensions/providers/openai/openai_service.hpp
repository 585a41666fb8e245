// The one way the OpenAI providers call their service: the request every endpoint shares (base
// URL, key, idempotency key, timeout, answer size) sent through the worker's HTTP client, and the
// answer checked by openai_answers. Each provider adds only its path and body.
#pragma once

#include "common/core/http/http_client.hpp"
#include "common/domain/generation/provider_calls.hpp"
#include "common/extensions/providers/openai/openai_settings.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace squawk::providers::openai {

struct ServiceCall {
    std::string path;  // below base_url: "/chat/completions"
    std::string content_type = "application/json";
    std::string body;
    std::string idempotency_key;  // sent when not empty
    std::string accept = "application/json";
};

// The HTTP request for `call`: URL below base_url, key, idempotency key, timeout, answer size.
http::Request service_request(const config::OpenAiSettings& settings, ServiceCall call);

// POSTs `call` through the worker's client and returns the answer as it came. Throws
// ProviderStopped when the stop flag is set before sending, a retryable ProviderError when the
// process has no HTTP client.
http::Response send_service(const config::OpenAiSettings& settings, ServiceCall call,
                            generation::ProviderCalls& calls);

// POSTs `call` and returns the accepted JSON body. Throws ProviderStopped when the stop flag is
// set before sending, or ProviderError (openai_answers.hpp).
nlohmann::json call_service(const config::OpenAiSettings& settings, ServiceCall call,
                            generation::ProviderCalls& calls);

// `requested`, or the default (the first of `allowed`) when empty. Throws a permanent
// ProviderError with details {"code": "MODEL_NOT_AVAILABLE"} for a model not allowed.
std::string chosen_model(const std::vector<std::string>& allowed, const std::string& requested);

}  // namespace squawk::providers::openai
