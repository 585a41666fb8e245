// Chat completions from an OpenAI-style service (POST {base_url}/chat/completions), for articles,
// outlines and captions. The models are the deployment's list in [providers.openai].
#pragma once

#include "common/domain/generation/text_provider.hpp"
#include "common/extensions/providers/openai/openai_settings.hpp"

namespace squawk::providers::openai {

class OpenAiTextProvider final : public generation::TextProvider {
  public:
    explicit OpenAiTextProvider(config::OpenAiSettings settings) : settings_(std::move(settings)) {}

    std::vector<std::string> models() const override;
    generation::TextCompletion complete(const generation::TextRequest& request,
                                        generation::ProviderCalls& calls) const override;

  private:
    config::OpenAiSettings settings_;
};

}  // namespace squawk::providers::openai
