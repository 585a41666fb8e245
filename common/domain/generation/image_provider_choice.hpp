// Which provider makes an image: a card template goes to the registered provider that renders it
// (the local one), a prompt to the provider [generation] image names. The API checks the choice
// before accepting the job and the job makes the same one.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/domain/generation/image_provider.hpp"
#include "common/domain/generation/provider_registry.hpp"

#include <memory>
#include <string>

namespace squawk::generation {

struct ImageProviderChoice {
    std::string name;
    std::unique_ptr<ImageProvider> provider;  // null when no provider can make the request
};

ImageProviderChoice choose_image_provider(const ProviderRegistry& registry,
                                          const config::Config& config,
                                          const ImageRequest& request);

}  // namespace squawk::generation
