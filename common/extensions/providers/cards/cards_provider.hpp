// Cards rendered on this machine from a template and its fields (title, quote, list, stat)
// with Cairo and Pango: no network, no prompts, any script the installed fonts cover.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/domain/generation/image_provider.hpp"
#include "common/extensions/providers/cards/cards_settings.hpp"

#include <memory>

namespace squawk::providers::cards {

class CardsProvider final : public generation::ImageProvider {
  public:
    explicit CardsProvider(config::CardsSettings settings) : settings_(std::move(settings)) {}

    std::vector<std::string> templates() const override;
    std::vector<std::string> models() const override;
    std::vector<generation::FieldProblem> check(
        const generation::ImageRequest& request) const override;
    generation::GeneratedImage generate(const generation::ImageRequest& request,
                                        const std::filesystem::path& output,
                                        generation::ProviderCalls& calls) const override;

  private:
    config::CardsSettings settings_;
};

// The registry's factory (common/extensions/providers/registered.cpp).
std::unique_ptr<generation::ImageProvider> make_image_provider(const config::Config& config);

}  // namespace squawk::providers::cards
