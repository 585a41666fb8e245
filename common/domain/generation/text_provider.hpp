// The text seam: chat-style completion for articles, outlines and captions. A deployment without
// a text provider generates no text at all (422 MODEL_NOT_AVAILABLE), never an invented one.
#pragma once

#include "common/domain/generation/modality.hpp"
#include "common/domain/generation/provider_calls.hpp"

#include <string>
#include <vector>

namespace squawk::generation {

struct ChatMessage {
    std::string role;  // system, user, assistant
    std::string content;
};

struct TextRequest {
    std::string model;  // one of models(); empty: the provider's default (the first)
    std::vector<ChatMessage> messages;
    int max_tokens = 2048;
    double temperature = 0.7;
    // Stable across retries of one job, for services that deduplicate on it.
    std::string idempotency_key;
};

struct TextCompletion {
    std::string text;
    std::string model;  // as the service reports it
    long long prompt_tokens = 0;
    long long completion_tokens = 0;
    std::string finish_reason;
};

class TextProvider {
  public:
    static constexpr Modality kModality = Modality::text;

    virtual ~TextProvider() = default;

    // The models this deployment allows, the default first; never empty.
    virtual std::vector<std::string> models() const = 0;

    // Throws ProviderError (retryable when the service may answer later: timeouts, 429, 5xx) or
    // ProviderStopped.
    virtual TextCompletion complete(const TextRequest& request, ProviderCalls& calls) const = 0;
};

}  // namespace squawk::generation
