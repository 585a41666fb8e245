#include "common/domain/generation/provider_registry.hpp"

#include "common/core/config/config.hpp"

namespace squawk::generation {

bool ProviderRegistry::has(Modality modality, std::string_view name) const {
    return factories_.contains({modality, std::string(name)});
}

std::vector<std::string> ProviderRegistry::names(Modality modality) const {
    std::vector<std::string> out;
    for (const auto& [key, factory] : factories_)
        if (key.first == modality) out.push_back(key.second);
    return out;
}

void ProviderRegistry::add_factory(Modality modality, std::string name, std::any factory) {
    const std::string label = std::string(name_of(modality)) + " provider '" + name + "'";
    if (!factories_.emplace(std::pair{modality, std::move(name)}, std::move(factory)).second)
        throw std::logic_error(label + " is registered twice");
}

const std::any& ProviderRegistry::factory(Modality modality, std::string_view name) const {
    const auto found = factories_.find({modality, std::string(name)});
    if (found == factories_.end())
        throw UnknownProvider("no " + std::string(name_of(modality)) + " provider named '" +
                              std::string(name) + "'");
    return found->second;
}

std::string ProviderRegistry::default_name(Modality modality, const config::Config& config) {
    const auto& chosen = config.generation.default_provider;
    const auto found = chosen.find(std::string(name_of(modality)));
    return found == chosen.end() ? std::string() : found->second;
}

}  // namespace squawk::generation
