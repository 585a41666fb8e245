#include "common/extensions/providers/openai/openai_service.hpp"

#include "common/core/http/http_client.hpp"
#include "common/domain/generation/provider_error.hpp"
#include "common/extensions/providers/openai/openai_answers.hpp"

#include <algorithm>

namespace squawk::providers::openai {

using generation::ProviderError;

http::Request service_request(const config::OpenAiSettings& settings, ServiceCall call) {
    http::Request request;
    request.method = "POST";
    request.url = settings.base_url + call.path;
    request.headers = {{"Content-Type", call.content_type}, {"Accept", call.accept}};
    if (!settings.api_key.empty())
        request.headers.emplace_back("Authorization", "Bearer " + settings.api_key);
    if (!call.idempotency_key.empty())
        request.headers.emplace_back("Idempotency-Key", call.idempotency_key);
    request.body = std::move(call.body);
    request.timeout = std::chrono::seconds(settings.timeout_seconds);
    request.max_response_bytes = settings.max_response_bytes;
    return request;
}

http::Response send_service(const config::OpenAiSettings& settings, ServiceCall call,
                            generation::ProviderCalls& calls) {
    if (calls.stop()) throw generation::ProviderStopped();
    http::Client* client = calls.http();
    if (!client) throw ProviderError::retryable("this process has no HTTP client for the provider");
    return client->send(service_request(settings, std::move(call)));
}

nlohmann::json call_service(const config::OpenAiSettings& settings, ServiceCall call,
                            generation::ProviderCalls& calls) {
    return accepted_body(send_service(settings, std::move(call), calls));
}

std::string chosen_model(const std::vector<std::string>& allowed, const std::string& requested) {
    if (requested.empty() && !allowed.empty()) return allowed.front();
    if (std::find(allowed.begin(), allowed.end(), requested) == allowed.end())
        throw ProviderError::permanent("model '" + requested + "' is not offered here",
                                       {{"code", "MODEL_NOT_AVAILABLE"}, {"model", requested}});
    return requested;
}

}  // namespace squawk::providers::openai
