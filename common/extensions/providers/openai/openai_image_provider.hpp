// Pictures from a prompt by an OpenAI-style service (POST {base_url}/images/generations): the
// image comes back base64-encoded and is checked to be the format and size asked before it is
// written. Prompt-only: it renders no card templates.
#pragma once

#include "common/domain/generation/image_provider.hpp"
#include "common/extensions/providers/openai/openai_settings.hpp"

namespace squawk::providers::openai {

class OpenAiImageProvider final : public generation::ImageProvider {
  public:
    explicit OpenAiImageProvider(config::OpenAiSettings settings)
        : settings_(std::move(settings)) {}

    std::vector<std::string> templates() const override;
    std::vector<std::string> models() const override;
    std::vector<generation::FieldProblem> check(
        const generation::ImageRequest& request) const override;
    generation::GeneratedImage generate(const generation::ImageRequest& request,
                                        const std::filesystem::path& output,
                                        generation::ProviderCalls& calls) const override;

  private:
    config::OpenAiSettings settings_;
};

}  // namespace squawk::providers::openai
