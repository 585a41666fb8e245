#include "common/extensions/providers/openai/openai_text_provider.hpp"

#include "common/extensions/providers/openai/openai_answers.hpp"
#include "common/extensions/providers/openai/openai_service.hpp"

namespace squawk::providers::openai {

std::vector<std::string> OpenAiTextProvider::models() const {
    return settings_.text_models;
}

generation::TextCompletion OpenAiTextProvider::complete(const generation::TextRequest& request,
                                                        generation::ProviderCalls& calls) const {
    const std::string model = chosen_model(settings_.text_models, request.model);
    nlohmann::json messages = nlohmann::json::array();
    for (const auto& message : request.messages)
        messages.push_back({{"role", message.role}, {"content", message.content}});
    const nlohmann::json body{{"model", model},
                              {"messages", std::move(messages)},
                              {"max_tokens", request.max_tokens},
                              {"temperature", request.temperature}};
    auto completion = parse_completion(
        call_service(settings_,
                     {"/chat/completions", "application/json",
                      body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                      request.idempotency_key},
                     calls));
    if (completion.model.empty()) completion.model = model;
    return completion;
}

}  // namespace squawk::providers::openai
