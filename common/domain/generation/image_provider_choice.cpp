#include "common/domain/generation/image_provider_choice.hpp"

#include "common/core/config/config.hpp"

#include <algorithm>

namespace squawk::generation {

ImageProviderChoice choose_image_provider(const ProviderRegistry& registry,
                                          const config::Config& config,
                                          const ImageRequest& request) {
    if (request.template_name.empty()) {
        const auto chosen = config.generation.default_provider.find(name_of(Modality::image));
        if (chosen == config.generation.default_provider.end()) return {};
        auto provider = registry.create<ImageProvider>(chosen->second, config);
        if (provider->models().empty()) return {chosen->second, nullptr};
        return {chosen->second, std::move(provider)};
    }
    for (const auto& name : registry.names(Modality::image)) {
        auto provider = registry.create<ImageProvider>(name, config);
        const auto templates = provider->templates();
        if (std::find(templates.begin(), templates.end(), request.template_name) != templates.end())
            return {name, std::move(provider)};
    }
    return {};
}

}  // namespace squawk::generation
